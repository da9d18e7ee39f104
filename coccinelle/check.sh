#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh - `make cocci-check`: rebuild the hand-written patches of series/$KVER/$REV
# on the base tag in a scratch detached worktree (the branch is never
# touched), regenerate the Coccinelle conversions there, format them as
# scripts/export.sh does, and require them byte-identical to the generated
# patches that series/$KVER/$REV holds, review trailers aside. A hand edit of a
# generated patch fails it.
set -euo pipefail
PROG="cocci-check"
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=lib-cocci.sh
. "$(dirname "$0")/lib-cocci.sh"
workdir_lock

check_rev
require_tree
base=$(series_base)
series=${COCCI_SERIES:-$SERIES_DIR/$REV}
# The line that marks a patch as generated, in any form generate.sh wrote.
marker=$GENERATED_MARKER

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One scratch worktree, kept between runs: moving it is cheaper than a
# fresh checkout of the whole tree.
wt=$WORKDIR/cocci-check/linux-$KVER
scratch_worktree "$wt" "$base"

hand=0
for p in "$series"/*.patch; do
	[ -e "$p" ] || continue
	grep -Eq "$marker" "$p" && continue
	git -C "$wt" am -q --keep-cr "$p" >"$tmp/am.log" 2>&1 ||
		die "${p##*/} does not apply on $base: $(head -n 1 "$tmp/am.log")"
	hand=$((hand + 1))
done
note "applied $hand hand-written patches of ${series#"$TOP"/} in a scratch worktree"

"$TOP/coccinelle/generate.sh" "$wt"

mkdir "$tmp/out"
git -C "$wt" -c core.abbrev=12 -c diff.algorithm=myers -c diff.noprefix=false \
	-c diff.mnemonicPrefix=false -c diff.renames=true -c format.signOff=false \
	-c format.coverLetter=false -c format.numbered=auto \
	format-patch -q --zero-commit --no-signature -o "$tmp/out" "$base..HEAD" >/dev/null

# untrailed PATCH: the patch without the review trailers of its message
# (make trailers adds them; what is compared is the change and its text).
untrailed() {
	sed -E '/^---$/,$!{/^(Reviewed|Acked|Tested|Reported|Suggested)-by: /d}' "$1"
}

bad=0
gen=0
for f in "$tmp/out"/*.patch "$series"/*.patch; do
	[ -e "$f" ] || continue
	grep -Eq "$marker" "$f" || continue
	name=${f##*/}
	[ "$f" = "$tmp/out/$name" ] && gen=$((gen + 1))
	if [ ! -e "$tmp/out/$name" ]; then
		printf 'cocci-check: %s is in %s but regeneration does not produce it\n' "$name" "${series#"$TOP"/}"
		bad=$((bad + 1))
	elif [ ! -e "$series/$name" ]; then
		[ "$f" = "$tmp/out/$name" ] || continue
		printf 'cocci-check: regeneration produces %s, missing from %s\n' "$name" "${series#"$TOP"/}"
		bad=$((bad + 1))
	elif [ "$f" = "$series/$name" ] && ! cmp -s <(untrailed "$tmp/out/$name") <(untrailed "$series/$name"); then
		printf 'cocci-check: %s differs from its regeneration:\n' "$name"
		diff -u <(untrailed "$series/$name") <(untrailed "$tmp/out/$name") | sed 's/^/    /' | head -n 40
		bad=$((bad + 1))
	fi
done
if [ "$bad" -ne 0 ]; then
	printf 'cocci-check %s: FAIL: %d generated patches do not match %s\n' "$REV" "$bad" "$(repo_path "$series")"
	exit 1
fi
printf 'cocci-check %s: PASS (%d generated patches match %s byte for byte, review trailers aside)\n' "$REV" "$gen" "$(repo_path "$series")"
