#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# export.sh - write branch b4/safer-fput back to series/$REV and cover-letters/$REV.txt.
#
# Only files that changed are rewritten, so an unchanged branch leaves this
# repository's `git status` clean. Uncommitted edits to series/$REV in this
# repository are never overwritten.
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
	note "series/$REV already matches $BRANCH: nothing to write"
	exit 0
fi

# Overwrite series/$REV only if what it holds is saved: committed in this
# repo, or exactly what the last import or export synced with the branch.
if [ -n "$(git -C "$TOP" status --porcelain -- "series/$REV" "cover-letters/$REV.txt")" ]; then
	synced=
	if tgit rev-parse -q --verify "$SYNC_REF" >/dev/null; then
		mkdir "$tmp/synced"
		export_branch "$tmp/synced" "$SYNC_REF"
		series_matches "$tmp/synced" && synced=1
	fi
	[ -n "$synced" ] ||
		die "series/$REV or cover-letters/$REV.txt has uncommitted edits in this repo; commit or stash them first (nothing written)"
fi

mkdir -p "$TOP/series/$REV" "$TOP/cover-letters"
for f in "$TOP/series/$REV"/*.patch; do
	[ -e "$f" ] && [ ! -e "$tmp/${f##*/}" ] && rm -f "$f" && note "removed series/$REV/${f##*/}"
done
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	cmp -s "$f" "$TOP/series/$REV/${f##*/}" && continue
	cp "$f" "$TOP/series/$REV/"
	note "wrote series/$REV/${f##*/}"
done
cmp -s "$tmp/cover.txt" "$TOP/cover-letters/$REV.txt" || {
	cp "$tmp/cover.txt" "$TOP/cover-letters/$REV.txt"
	note "wrote cover-letters/$REV.txt"
}
tgit update-ref "$SYNC_REF" "$BRANCH"
note "series/$REV now matches $BRANCH"
