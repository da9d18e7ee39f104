#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kerneldoc.sh - the revision adds no kernel-doc warning.
#
# Runs scripts/kernel-doc -none on every .c/.h file the series touches, at
# the base and at the head, and fails on warnings only the head has.
set -euo pipefail
PROG=kerneldoc
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
range=$(check_range)
mapfile -t files < <(tgit diff --name-only --diff-filter=AM "$range" -- '*.c' '*.h' ':!tools')
[ "${#files[@]}" -gt 0 ] || { verdict kerneldoc 0 "no kernel .c/.h file touched"; exit 0; }

# kdoc REF: kernel-doc warnings of the files at REF, line numbers stripped.
kdoc() {
	local f tmp
	tmp=$(mktemp)
	for f in "${files[@]}"; do
		tgit show "$1:$f" >"$tmp" 2>/dev/null || continue
		perl "$TREE/scripts/kernel-doc" -none "$tmp" 2>&1 |
			sed -E "s|$tmp:[0-9]+|$f|"
	done
	rm -f "$tmp"
}
new=$(comm -13 <(kdoc "${range%%..*}" | sort) <(kdoc "${range##*..}" | sort))
if [ -z "$new" ]; then
	verdict kerneldoc 0 "${#files[@]} files, no new kernel-doc warning"
else
	printf '%s\n' "$new" | sed 's/^/       /'
	verdict kerneldoc "$(printf '%s\n' "$new" | wc -l)" "new kernel-doc warnings"
fi
