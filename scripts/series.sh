#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# series.sh - (re)build branch b4/safer-fput from series/$KVER/$REV.
#
# The branch is the b4 cover commit (cover-letters/$KVER/$REV.txt, which
# carries b4's tracking block) on the base tag, then series/$KVER/$REV/*.patch
# applied with
# git am. It is built on a detached HEAD and the branch moves only once all
# patches applied, so a failure leaves the branch as it was. A branch that
# holds work not exported to series/ is never reset: it is exported (the
# branch is the source of truth, as for b4), or refused if series/ was
# edited as well.
set -euo pipefail
PROG=series
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
workdir_lock

check_rev
require_tree
base=$(series_base)
require_clean_tree
# Work in progress that is on no branch yet: a rebase or am stopped half
# way (the branch still points where it started), or commits made on a
# detached HEAD. Checking out the branch would leave it behind.
for d in rebase-merge rebase-apply; do
	[ ! -e "$(tgit rev-parse --path-format=absolute --git-path "$d")" ] ||
		die "a rebase or am is in progress in $TREE; finish or abort it first (nothing touched)"
done
if ! tgit symbolic-ref -q HEAD >/dev/null &&
	[ -z "$(tgit for-each-ref --contains HEAD --count=1 --format=x)" ]; then
	die "HEAD of $TREE is detached at $(tgit rev-parse --short=12 HEAD), which no branch or tag holds; put it on $BRANCH first (nothing touched)"
fi
cover_file=$COVER_DIR/$REV.txt
patches=("$SERIES_DIR/$REV"/*.patch)
[ -e "${patches[0]}" ] || patches=()

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if branch_exists; then
	export_branch "$tmp"
	if series_matches "$tmp"; then
		tgit update-ref "$SYNC_REF" "$BRANCH"
		[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] ||
			tgit checkout -q "$BRANCH"
		note "$BRANCH is already at $REV (${#patches[@]} patches): nothing to do"
		exit 0
	fi
	# The branch differs from series/KVER/$REV (or holds another revision).
	# Branch first, as with b4: a branch edited since the last import or
	# export (git commit --amend, rebase -i) is the newer side, and
	# series/ follows it, provided series/ still holds what was synced
	# then. If series/ was edited too, neither side can win: refuse.
	# A branch that has not moved is rebuilt from series/ (all of it is
	# saved there).
	synced=$(tgit rev-parse -q --verify "$SYNC_REF" || true)
	if [ "$(tgit rev-parse "$BRANCH")" != "$synced" ]; then
		[ -n "$synced" ] ||
			die "$BRANCH was never synced with $(repo_path "$SERIES_DIR/$REV"); run 'make export' to save it there (nothing touched)"
		got=$(cover_revision "$tmp/cover.txt")
		[ "$got" = "$(rev_number "$REV")" ] ||
			die "$BRANCH holds work at v$got not exported to series/; run 'make export REV=v$got' first (nothing touched)"
		mkdir "$tmp/synced"
		export_branch "$tmp/synced" "$SYNC_REF"
		series_matches "$tmp/synced" ||
			die "$BRANCH and $(repo_path "$SERIES_DIR/$REV") were both edited since they were last in sync; keep one: 'make export' (the branch) or reset $BRANCH to $SYNC_REF and 'make series' (series/) (nothing touched)"
		note "$BRANCH was edited since it was last in sync with $(repo_path "$SERIES_DIR/$REV"): exporting it"
		# As a rebuild does: what series/ held stays reachable.
		tgit update-ref "refs/safer-fput/previous" "$synced"
		"$TOP/scripts/export.sh"
		[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] ||
			tgit checkout -q "$BRANCH"
		exit 0
	fi
fi

if [ -f "$cover_file" ]; then
	[ "$(cover_revision "$cover_file")" = "$(rev_number "$REV")" ] ||
		die "$(repo_path "$cover_file") has no b4 tracking block for revision $(rev_number "$REV")"
fi

prev=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
restore() {
	tgit am --abort >/dev/null 2>&1 || true
	tgit checkout -q -f "$prev"
}

note "building $BRANCH from $(repo_path "$SERIES_DIR/$REV") on $base"
if [ -f "$cover_file" ]; then
	# Rebuilding the same series gives the same commit ids: the cover is
	# dated by its change-id (b4 looks for covers younger than a year) and
	# git am keeps each patch's author date as its commit date.
	day=$(sed -n 's/^ *"change-id": "\([0-9]\{8\}\)-.*/\1/p' "$cover_file")
	[ -n "$day" ] || die "$(repo_path "$cover_file") has no b4 change-id"
	tgit checkout -q --detach "$base"
	GIT_AUTHOR_DATE="${day:0:4}-${day:4:2}-${day:6:2}T00:00:00Z" \
	GIT_COMMITTER_DATE="${day:0:4}-${day:4:2}-${day:6:2}T00:00:00Z" \
		tgit commit -q --no-verify --allow-empty --cleanup=verbatim -F "$cover_file"
else
	# A revision without a cover letter yet: let b4 create the cover
	# commit and its tracking block; 'make export' saves it.
	branch_exists && die "$(repo_path "$cover_file") is missing; run 'make export' to write it"
	tgit checkout -q -B safer-fput/base "$base"
	require_b4
	(cd "$TREE" && b4 prep -n "$SERIES_NAME" -f "$base" >"$tmp/b4.log" 2>&1) || {
		cat "$tmp/b4.log" >&2
		restore
		die "b4 prep -n $SERIES_NAME -f $base failed"
	}
	tgit checkout -q --detach "$BRANCH"
fi

i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	printf '%s: [%d/%d] %s\n' "$PROG" "$i" "${#patches[@]}" "${p##*/}" >&2
	if ! tgit am -q --keep-cr --committer-date-is-author-date "$p" >"$tmp/am.log" 2>&1; then
		sed 's/^/  /' "$tmp/am.log" >&2
		restore
		[ -f "$cover_file" ] || tgit branch -q -D "$BRANCH"
		die "$(repo_path "$p") does not apply; git am aborted, $BRANCH untouched"
	fi
done

if branch_exists; then
	# Keep the old head reachable: a rebuilt branch loses no work.
	tgit update-ref "refs/safer-fput/previous" "$BRANCH"
fi
tgit checkout -q -B "$BRANCH"
tgit update-ref "$SYNC_REF" "$BRANCH"
n=$(tgit rev-list --count "$base..$BRANCH")
note "$BRANCH at $REV: cover + $((n - 1)) patches, head $(tgit rev-parse --short "$BRANCH")"
