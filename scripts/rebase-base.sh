#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rebase-base.sh - move the series onto another base: by default the tree
# of the installed linux-source package, which `make tree` imports as a new
# root commit and tag when Debian updates it, without moving the series.
#
# The branch is rebased (git rebase --onto NEW OLD, three-way) in $TREE's
# checkout. A patch that conflicts is named, the rebase aborted and the
# branch left as it was. Before the branch moves, its old head is kept as
# branch pre-rebase/$SERIES_NAME-<old version>; after, series/$KVER/series.conf
# names the new base and series/$KVER/$REV is exported from the branch (`git diff`
# in this repository shows what the rebase changed). A revision already
# sent is not rebased in place: start the next one first (make revision).
#
# usage: rebase-base.sh [TAG]   (TAG: a base/linux-source-* tag of $TREE)
set -euo pipefail
PROG=rebase-base
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
workdir_lock

check_rev
require_tree
old=$(series_base)
new=${1:-$(base_tag)}
case $new in
base/linux-source-*) ;;
*) die "ONTO=$new is not a base/linux-source-* tag" ;;
esac
tgit rev-parse -q --verify "refs/tags/$new^{commit}" >/dev/null ||
	die "$TREE has no tag $new (have: $(tgit tag -l 'base/*' | tr '\n' ' ')); run 'make tree'"
if [ "$(tgit rev-parse "refs/tags/$new^{commit}")" = "$(tgit rev-parse "refs/tags/$old^{commit}")" ]; then
	note "$BRANCH is on $new already: nothing to do"
	exit 0
fi
branch_exists || die "no branch $BRANCH in $TREE (run 'make series')"
require_clean_tree
# Everything on the branch must be in series/KVER/$REV: the export below
# rewrites it from the rebased branch. Only this base's files are looked
# at and put back on a failure: another base's are not this rebase's.
require_synced
[ -z "$(git -C "$TOP" status --porcelain -- "$SERIES_DIR" "$COVER_DIR")" ] ||
	die "$(repo_path "$SERIES_DIR")/ or $(repo_path "$COVER_DIR")/ has uncommitted changes; commit them first (nothing touched)"
sent=refs/tags/sent/$SERIES_NAME-v$(rev_number "$REV")
! tgit rev-parse -q --verify "$sent" >/dev/null ||
	die "$REV was sent ($sent): run 'make revision' and rebase the new one (nothing touched)"

oldver=${old#base/linux-source-}
newver=${new#base/linux-source-}
keep=refs/heads/pre-rebase/$SERIES_NAME-$oldver
# A second rebase from the same base keeps its old head beside the first.
i=1
while tgit rev-parse -q --verify "$keep" >/dev/null &&
	[ "$(tgit rev-parse "$keep")" != "$(tgit rev-parse "$BRANCH")" ]; do
	i=$((i + 1))
	keep=refs/heads/pre-rebase/$SERIES_NAME-$oldver-$i
done
head=$(tgit rev-parse "$BRANCH")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A patch the new base already carries becomes empty, and git rebase drops
# it. Each base is a root commit (an imported tarball), so git cherry has no
# upstream commit to match it against: compare the subjects before and after.
tgit log --reverse --format=%s "refs/tags/$old..$head" >"$tmp/before"

note "rebasing $BRANCH ($(tgit rev-list --count "$old..$BRANCH") commits) from $old onto $new"
[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] || tgit checkout -q "$BRANCH"
if ! tgit rebase -q --onto "refs/tags/$new" "refs/tags/$old" "$BRANCH" >"$tmp/rebase.log" 2>&1; then
	stopped=$(sed -n 's/^error: could not apply [0-9a-f]*\.\.\. //p; s/^Could not apply [0-9a-f]*\.\.\. //p' "$tmp/rebase.log" | head -n 1)
	files=$(tgit diff --name-only --diff-filter=U | tr '\n' ' ')
	tgit rebase --abort >/dev/null 2>&1 || true
	[ "$(tgit rev-parse "$BRANCH")" = "$head" ] || die "rebase --abort did not restore $BRANCH; it was at $head"
	die "'${stopped:-a patch}' conflicts with $new${files:+ in ${files% }}: rebase aborted, $BRANCH untouched"
fi

tgit update-ref "$keep" "$head"
tgit log --reverse --format=%s "refs/tags/$new..$BRANCH" >"$tmp/after"
# diff exits 1 when the lists differ, 2 on trouble.
rc=0
diff "$tmp/before" "$tmp/after" >"$tmp/diff" || rc=$?
# (The rebase is done: say so rather than stop half-way.)
[ "$rc" -le 1 ] || note "could not compare the series before and after the rebase: patches dropped as already in $new are not named"
dropped=$(sed -n "s/^< \(.*\)/'\1'/p" "$tmp/diff")
sed -i -e "s|^SERIES_PKGVER=.*|SERIES_PKGVER=$(printf '%s' "$newver" | sed 's/_/~/g; s/%/:/g; s/\.#\./../g')|" \
	-e "s|^SERIES_BASE_TAG=.*|SERIES_BASE_TAG=$new|" "$SERIES_CONF"
# series/KVER/ is clean: the export overwrites it, and syncs the branch.
if ! "$TOP/scripts/export.sh"; then
	tgit reset -q --hard "$head"
	# (Both were clean before: nothing of the developer's is lost.)
	git -C "$TOP" checkout -q -- "$SERIES_DIR"
	# (A base whose revisions have no cover letter yet has no COVER_DIR.)
	! git -C "$TOP" ls-files --error-unmatch -- "$COVER_DIR" >/dev/null 2>&1 ||
		git -C "$TOP" checkout -q -- "$COVER_DIR"
	git -C "$TOP" clean -q -f -- "$SERIES_DIR" "$COVER_DIR"
	die "export of the rebased branch failed: $BRANCH and $(repo_path "$SERIES_DIR")/ put back as they were"
fi
note "old head kept as ${keep#refs/heads/}; $(repo_path "$SERIES_CONF") now names $new"
if [ -n "$dropped" ]; then
	note "dropped, already in $new: $(printf '%s\n' "$dropped" | awk 'NR > 1 { printf ", " } { printf "%s", $0 }')"
fi
n_dropped=$(printf '%s' "$dropped" | grep -c . || true)
printf 'rebase-base %s: PASS (%s -> %s, %d commits%s)\n' "$REV" "$oldver" "$newver" \
	"$(tgit rev-list --count "$new..$BRANCH")" \
	"$([ "$n_dropped" = 0 ] || printf ', %d dropped as already in the new base' "$n_dropped")"
