#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tree.sh - turn linux-source-$KVER's tarball (lib.sh: source_tarball) into a git tree in $WORKDIR.
#
# The pristine tarball becomes one commit with a fixed identity and date, so
# its id is the same on every machine, tagged base/linux-source-<pkgver>.
# A second run reuses the tree; a tree with uncommitted work is never touched.
set -euo pipefail
PROG=tree
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
workdir_lock

check_kver
tarball=$(source_tarball)
tag=$(base_tag)

if [ -e "$TREE" ]; then
	[ -d "$TREE/.git" ] ||
		die "$TREE exists but is not a git tree; move it away (nothing touched)"
	require_clean_tree
	if tgit rev-parse -q --verify "refs/tags/$tag^{commit}" >/dev/null; then
		tgit config gc.autoDetach false
		note "reusing $TREE at $tag ($(tgit rev-parse --short "$tag^{commit}"))"
		exit 0
	fi
	# A clean tree of another package version: import the new tarball as
	# a fresh root commit next to the old one; no branch moves. The import
	# replaces every file: even what the kernel ignores (tags, patches/,
	# *.orig) would be lost, so any untracked file stops it.
	[ -z "$(tgit ls-files --others | head -n 1)" ] ||
		die "$TREE has untracked files ($(tgit ls-files --others | head -n 1), ...), ignored or not; the import of $tag would delete them: move them away (nothing touched)"
	note "$TREE has no $tag; importing it beside the existing history"
	stage=$TREE
else
	stage=$TREE.partial
	rm -rf "$stage"
	mkdir -p "$stage"
	git -C "$stage" init -q -b master
fi

note "extracting $tarball (1-2 min)"
# Replace the working files only: .git stays.
find "$stage" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
tar -C "$stage" --strip-components=1 -xJf "$tarball"

note "importing $(find "$stage" -path "$stage/.git" -prune -o -type f -print | wc -l) files into git (about 40 s)"
# The import is a root commit made with its own index: whatever branch is
# checked out (b4/safer-fput, after `make series`) does not move, so a
# Debian update of the package never lands on top of the series.
index=$stage/.git/index.import
rm -f "$index"
# -f: the Debian .gitignore stanza ignores every top-level path (docs/notes.md).
GIT_INDEX_FILE=$index git -C "$stage" add -f -A
tree=$(GIT_INDEX_FILE=$index git -C "$stage" write-tree)
rm -f "$index"
git -C "$stage" config core.abbrev 12
ver=$(pkg_version)
# A fixed identity and date make the base commit id the same on every machine
# with the same package version.
export GIT_AUTHOR_NAME="safer-fput import" GIT_AUTHOR_EMAIL="safer-fput@localhost"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
commit=$(git -C "$stage" commit-tree --no-gpg-sign "$tree" \
	-m "linux-source-$KVER $ver" \
	-m "Pristine import of $tarball (Debian package linux-source-$KVER $ver).")
git -C "$stage" tag -a -m "linux-source-$KVER $ver" "$tag" "$commit"
# The files are already the tag's: -f only resets the index to them.
git -C "$stage" checkout -q -f -B master "$tag"
# 78,000 loose objects would start `git gc --auto` in the background at the
# next git command: a minute of CPU under the first build, holding every
# fd it inherited (workdir_lock's among them). Pack them now, without a
# delta search (one snapshot gains little from deltas), and keep any later
# auto gc in the foreground.
note "packing the import (about 20 s)"
git -C "$stage" -c pack.window=0 repack -adq
git -C "$stage" config gc.autoDetach false

[ "$stage" = "$TREE" ] || mv "$stage" "$TREE"
note "created $TREE at $tag ($(tgit rev-parse --short "$tag^{commit}"))"
