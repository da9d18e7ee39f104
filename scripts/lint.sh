#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lint.sh - shellcheck every shell script of this repository (tracked files
# whose first line is a sh or bash #!) and shell library (a "# shellcheck
# shell=" directive in its first five lines: shellcheck -x follows a sourced
# file but does not report what is wrong in it), one verdict line.
set -eu
cd "$(dirname "$0")/.."
command -v shellcheck >/dev/null ||
	{ echo "lint: FAIL: shellcheck not found (apt-get install shellcheck)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (No tracked file name has a newline.)
git -c core.quotePath=false ls-files | while IFS= read -r f; do
	[ -f "$f" ] || continue
	if head -n 1 "$f" | grep -Eq '^#!.*[/ ](ba)?sh([[:space:]]|$)' ||
		head -n 5 "$f" | grep -Eq '^# shellcheck shell=(ba)?sh$'; then
		printf '%s\n' "$f"
	fi
done >"$tmp/list"
n=$(wc -l <"$tmp/list")
[ "$n" -gt 0 ] || { echo "lint: FAIL: no shell scripts found (not a git checkout?)"; exit 1; }
if xargs -d '\n' shellcheck -x <"$tmp/list" >"$tmp/out" 2>&1; then
	echo "lint: PASS ($n scripts, shellcheck clean)"
else
	cat "$tmp/out"
	bad=$(sed -n 's/^In \(.*\) line [0-9]*:$/\1/p' "$tmp/out" | sort -u | wc -l)
	[ "$bad" -gt 0 ] || { echo "lint: FAIL: shellcheck failed without a finding (see above)"; exit 1; }
	echo "lint: FAIL: shellcheck findings in $bad of $n scripts; reproduce: make -C $(pwd) lint"
	exit 1
fi
