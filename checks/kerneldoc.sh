#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kerneldoc.sh - no patch of the revision adds a kernel-doc warning.
#
# For each patch, runs scripts/kernel-doc -none on the .c/.h files it adds,
# changes or renames, at its parent (a renamed file under its old name) and
# at the patch, and fails the patch on warnings only the patch has (line
# numbers stripped). One line per patch,
# one verdict line.
#
# Each patch's result and log are kept in $WORKDIR/results/KVER/vN/kerneldoc/,
# keyed by the trees of the patch and its parent and by the tree's
# kernel-doc and these scripts, and reused while the key holds; the
# revision's per-patch table goes to results/KVER/vN/kerneldoc.tsv (table_open,
# lib-checks.sh).
set -euo pipefail
PROG=kerneldoc
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
results=$WORKDIR/results/$KVER/$REV/kerneldoc
mkdir -p "$results"
table_open kerneldoc
key=$(cat "$0" "$TOP/checks/lib-checks.sh" "$TREE/scripts/kernel-doc" | sha256sum | cut -c1-16)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$TABLE.tmp"' EXIT

# kdoc REF SIDE: kernel-doc warnings at REF of the files of $tmp/pairs
# (lines "OLD<TAB>NEW", SIDE 1 reads OLD, 2 NEW; OLD is "-" for an added
# file, as read strips a leading tab), named NEW and line numbers stripped,
# so a renamed file is compared with what it was (both sides run at once:
# a scratch file each).
kdoc() {
	local ref=$1 side=$2 f name t
	t=$(mktemp -p "$tmp")
	while IFS=$'\t' read -r f name; do
		[ "$side" = 1 ] || f=$name
		[ "$f" != - ] || continue
		tgit show "$ref:$f" >"$t" 2>/dev/null || continue
		perl "$TREE/scripts/kernel-doc" -none "$t" 2>&1 |
			sed -E "s|$t:[0-9]+|$name|"
	done <"$tmp/pairs"
}

failed=0 n=0 bad='' reused=0 nfiles=0
for c in $(check_commits); do
	n=$((n + 1))
	subj=$(tgit log -1 --format=%s "$c")
	# Added, changed and renamed files: "OLD<TAB>NEW" (OLD "-" if added).
	tgit diff --name-status -M --diff-filter=AMR "$c^" "$c" -- '*.c' '*.h' ':!tools' |
		awk -F '\t' '$1 ~ /^R/ { print $2 "\t" $3; next } $1 == "A" { print "-\t" $2; next }
			{ print $2 "\t" $2 }' >"$tmp/pairs"
	nfiles=$((nfiles + $(wc -l <"$tmp/pairs")))
	res=$results/$(tgit rev-parse "$c^^{tree}" "$c^{tree}" | sha256sum | cut -c1-24)-$key
	if [ -f "$res" ]; then
		reused=$((reused + 1))
	else
		new=$(comm -13 <(kdoc "$c^" 1 | sort) <(kdoc "$c" 2 | sort))
		if [ -z "$new" ]; then
			printf 'pass\n' >"$res.tmp"
		else
			printf 'fail\n%s\n' "$new" >"$res.tmp"
		fi
		mv "$res.tmp" "$res"
	fi
	result=$(head -n 1 "$res")
	table_row "$n" "$result" "$subj"
	if [ "$result" = pass ]; then
		printf '  ok   %s\n' "$subj"
	else
		failed=$((failed + 1))
		bad="$bad${bad:+, }'$subj'"
		printf '  FAIL %s\n' "$subj"
		tail -n +2 "$res" | sed 's/^/       /'
	fi
done
[ "$n" -gt 0 ] || die "no commits to check in $(check_range)"
table_close
if [ "$failed" -eq 0 ]; then
	detail="$n patches, $nfiles files, no new kernel-doc warning"
	[ "$reused" = 0 ] || detail="$detail, $reused results reused"
	verdict kerneldoc 0 "$detail"
else
	verdict kerneldoc "$failed" "new kernel-doc warnings in $failed of $n patches: $bad"
fi
