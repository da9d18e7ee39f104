#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# list.sh - create the local list if needed; print its address, inbox and
# message count (one commit per message in the inbox's git epochs).
set -euo pipefail
PROG=list
# shellcheck source=lib-mail.sh
. "$(dirname "$0")/lib-mail.sh"

lists=$(lists_dir)
list_init "$lists"
count=0
for g in "$lists"/all/git/*.git; do
	c=$(git --git-dir="$g" rev-list --count HEAD 2>/dev/null || echo 0)
	count=$((count + c))
done
printf 'list %s: %d messages in %s/all\n' "$LIST_ADDR" "$count" "$lists"
