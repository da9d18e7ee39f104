#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lint.sh - shellcheck every shell script of this repository (tracked files
# whose first line is a sh or bash #!), one verdict line.
set -eu
cd "$(dirname "$0")/.."
list=$(mktemp)
trap 'rm -f "$list"' EXIT
git ls-files -z | xargs -0 grep -lZ '^#!.*sh' >"$list" || true
n=$(tr -cd '\0' <"$list" | wc -c)
[ "$n" -gt 0 ] || { echo "lint: FAIL: no shell scripts found (not a git checkout?)"; exit 1; }
if xargs -0 shellcheck -x <"$list"; then
	echo "lint: PASS ($n scripts, shellcheck clean)"
else
	bad=$(xargs -0 shellcheck -x -f gcc <"$list" | cut -d: -f1 | sort -u | wc -l)
	echo "lint: FAIL: shellcheck findings in $bad of $n scripts"
	exit 1
fi
