#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# export.sh - write branch b4/safer-fput back to series/$KVER/$REV and
# cover-letters/$KVER/$REV.txt.
#
# Only files that changed are rewritten, so an unchanged branch leaves this
# repository's `git status` clean. Uncommitted edits to series/$KVER/$REV in
# this repository are never overwritten.
set -euo pipefail
PROG="export"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
workdir_lock

check_rev
require_tree
branch_exists || die "no branch $BRANCH in $TREE (run 'make series')"
series_base >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_branch "$tmp"

got=$(cover_revision "$tmp/cover.txt")
[ "$got" = "$(rev_number "$REV")" ] ||
	die "$BRANCH is at v$got, not $REV (use REV=v$got)"

if series_matches "$tmp"; then
	tgit update-ref "$SYNC_REF" "$BRANCH"
	note "$(repo_path "$SERIES_DIR/$REV") already matches $BRANCH: nothing to write"
	exit 0
fi

# Overwrite series/KVER/$REV only if what it holds is saved: committed in
# this repo, or exactly what the last import or export synced with the branch.
if [ -n "$(git -C "$TOP" status --porcelain -- "$SERIES_DIR/$REV" "$COVER_DIR/$REV.txt")" ]; then
	synced=
	if tgit rev-parse -q --verify "$SYNC_REF" >/dev/null; then
		mkdir "$tmp/synced"
		export_branch "$tmp/synced" "$SYNC_REF"
		series_matches "$tmp/synced" && synced=1
	fi
	[ -n "$synced" ] ||
		die "$(repo_path "$SERIES_DIR/$REV") or $(repo_path "$COVER_DIR/$REV.txt") has uncommitted edits in this repo; commit or stash them first (nothing written)"
fi

mkdir -p "$SERIES_DIR/$REV" "$COVER_DIR"
for f in "$SERIES_DIR/$REV"/*.patch; do
	[ -e "$f" ] && [ ! -e "$tmp/${f##*/}" ] && rm -f "$f" && note "removed $(repo_path "$f")"
done
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	cmp -s "$f" "$SERIES_DIR/$REV/${f##*/}" && continue
	cp "$f" "$SERIES_DIR/$REV/"
	note "wrote $(repo_path "$SERIES_DIR/$REV/${f##*/}")"
done
cmp -s "$tmp/cover.txt" "$COVER_DIR/$REV.txt" || {
	cp "$tmp/cover.txt" "$COVER_DIR/$REV.txt"
	note "wrote $(repo_path "$COVER_DIR/$REV.txt")"
}
tgit update-ref "$SYNC_REF" "$BRANCH"
note "$(repo_path "$SERIES_DIR/$REV") now matches $BRANCH"
