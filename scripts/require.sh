#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# require.sh tree - fail with one line unless the kernel tree of KVER exists
# (for make targets that run several scripts, each of which would say so).
set -euo pipefail
PROG=${PROG:-require}
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
tree) require_tree ;;
*) die "usage: require.sh tree" ;;
esac
