# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# lib.sh - shared helpers for the safer-fput scripts; sourced, never run.
#
# Every script gets its configuration from the environment that the Makefile
# exports (KVER, WORKDIR, REV) and from this repository: series/series.conf
# names the default base, and each base KVER is a directory series/KVER/
# with its own series.conf and revisions vN/ (cover letters in
# cover-letters/KVER/).

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BRANCH=b4/safer-fput
export SERIES_NAME=safer-fput

# PATH stays the user's (their b4, QEMU, python). checkpatch's spdxcheck.py
# needs the Debian python3 modules (ply, git) that a pyenv shim ahead of
# /usr/bin lacks: checkpatch runs with PATH=$SYS_PATH.
export SYS_PATH=/usr/bin:$PATH

die() {
	printf '%s: error: %s\n' "${PROG:-${0##*/}}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${PROG:-${0##*/}}" "$*" >&2
}

# workdir_lock: hold $WORKDIR's lock until this script ends. Scripts that
# change what two makes would share (the kernel tree and its branch, the
# check worktree, build and boot directories, gate records, the list)
# take it, so a second make in the same WORKDIR waits instead of checking
# out, cleaning or booting under the first. Scripts they start inherit it.
# A daemon must not: start one with 7>&- (mail/httpd.sh does).
workdir_lock() {
	[ -z "${SAFER_FPUT_WORKDIR_LOCKED:-}" ] || return 0
	mkdir -p "$WORKDIR"
	exec 7>>"$WORKDIR/.lock"
	if ! flock -n 7; then
		note "waiting for another make in $WORKDIR ($WORKDIR/.lock)"
		flock 7
	fi
	export SAFER_FPUT_WORKDIR_LOCKED=1
}

# shellcheck source=../series/series.conf
. "$TOP/series/series.conf"
# shellcheck source=lib-apt.sh
. "$TOP/scripts/lib-apt.sh"

: "${KVER=$SERIES_DEFAULT_KVER}"
: "${WORKDIR:=$HOME/.cache/safer-fput}"
TREE=$WORKDIR/linux-$KVER
# The series of base KVER. A KVER with no series/KVER/series.conf has a
# tree (make tree) but no series: require_series refuses what needs one.
SERIES_DIR=$TOP/series/$KVER
COVER_DIR=$TOP/cover-letters/$KVER
SERIES_CONF=$SERIES_DIR/series.conf
if [ -f "$SERIES_CONF" ]; then
	# shellcheck source=../series/6.1/series.conf
	. "$SERIES_CONF"
fi
: "${REV=${SERIES_CURRENT:-}}"
# The boot's test selection (boot/, make boot KUNIT= SELFTESTS=): empty,
# every test. Scripts run directly, not through make, see it unset.
: "${KUNIT=}" "${SELFTESTS=}"

# reproduce TARGET [NAME=VALUE...]: the one make command that redoes this
# run from a fresh shell, for a FAIL verdict to end with: the repo, KVER,
# ARCH and REV always, WORKDIR when it is not the default, the test
# selection (KUNIT, SELFTESTS) when there is one, then the given words.
reproduce() {
	local w cmd
	cmd="make -C $(printf '%q' "$TOP") $1 KVER=$KVER ARCH=${ARCH:-x86_64}${REV:+ REV=$REV}"
	shift
	[ "$WORKDIR" = "$HOME/.cache/safer-fput" ] || cmd="$cmd WORKDIR=$(printf '%q' "$WORKDIR")"
	for w in "$@" ${KUNIT:+"KUNIT=$KUNIT"} ${SELFTESTS:+"SELFTESTS=$SELFTESTS"}; do
		cmd="$cmd ${w%%=*}=$(printf '%q' "${w#*=}")"
	done
	printf '%s' "$cmd"
}

# require_b4: the b4 found in PATH (the user's own, if they have one) is
# one the scripts work with: prep --auto-to-cc, send -o, trailers -u and
# am --offline-mode as b4 0.12 has them (docs/notes.md).
B4_MIN=0.12
require_b4() {
	local v
	command -v b4 >/dev/null || die "b4 not found (run 'make deps', or put b4 >= $B4_MIN in PATH)"
	v=$(b4 --version 2>/dev/null | head -n 1)
	printf '%s\n%s\n' "$B4_MIN" "${v:-0}" | sort -C -V ||
		die "b4 ${v:-of unknown version} at $(command -v b4) is older than $B4_MIN, which the scripts need"
}

# repo_path PATH: PATH of this repository as messages name it, relative to
# its top (series/6.1/v3, cover-letters/6.1/v3.txt).
repo_path() {
	printf '%s' "${1#"$TOP"/}"
}

# The bases: the KVERs that have a series/KVER/series.conf.
list_bases() {
	local c out=
	for c in "$TOP"/series/*/series.conf; do
		[ -f "$c" ] || continue
		c=${c%/series.conf}
		out="$out ${c##*/}"
	done
	printf '%s' "${out# }"
}

require_series() {
	[ -f "$SERIES_CONF" ] ||
		die "no series for KVER=$KVER (bases: $(list_bases))"
}

# arch_field CONF NAME: field NAME of an arch file boot/arch/*.conf (empty
# when unset), read in a subshell, for scripts that do not load an arch.
arch_field() {
	# shellcheck source=/dev/null
	(. "$1" && eval "printf '%s' \"\${$2:-}\"")
}

# A base's source is the installed linux-source-KVER package, or, for a base
# whose series.conf names a suite the machine does not use
# (SERIES_PKG_SUITE), the same package fetched from that suite and unpacked
# into $WORKDIR/deb/linux-source-KVER (scripts/deps.sh).
fetched_dir() { # KVER
	printf '%s' "$WORKDIR/deb/linux-source-$1"
}

source_tarball() { # of $KVER
	if [ -f "/usr/src/linux-source-$KVER.tar.xz" ]; then
		printf '%s' "/usr/src/linux-source-$KVER.tar.xz"
	else
		printf '%s' "$(fetched_dir "$KVER")/usr/src/linux-source-$KVER.tar.xz"
	fi
}

list_kvers() {
	local t out=
	for t in /usr/src/linux-source-*.tar.xz "$WORKDIR"/deb/linux-source-*/usr/src/linux-source-*.tar.xz; do
		[ -e "$t" ] || continue
		t=${t##*/linux-source-}
		out="$out ${t%.tar.xz}"
	done
	printf '%s' "${out# }"
}

list_revs() {
	local d out=
	for d in "$SERIES_DIR"/v*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		out="$out ${d##*/}"
	done
	printf '%s' "${out# }"
}

check_kver() {
	[ -f "$(source_tarball)" ] ||
		die "unknown KVER '$KVER': no $(source_tarball) (installed: $(list_kvers); run 'make deps KVER=$KVER')"
}

check_rev() {
	require_series
	case $REV in
	v[1-9]*) [ -d "$SERIES_DIR/$REV" ] && return 0 ;;
	esac
	die "unknown REV '$REV' (have: $(list_revs))"
}

# The base tag names the Debian package version of the tarball.
pkg_version() {
	if [ ! -f "/usr/src/linux-source-$KVER.tar.xz" ] && [ -f "$(fetched_dir "$KVER")/version" ]; then
		cat "$(fetched_dir "$KVER")/version"
		return
	fi
	dpkg-query -W -f='${Version}' "linux-source-$KVER" 2>/dev/null ||
		die "linux-source-$KVER is not installed (run 'make deps KVER=$KVER')"
}

# A Debian version may hold what a git ref may not (6.12's 6.12.118-1~deb12u1):
# mangle it as DEP-14 does for its debian/<version> tags: ~ becomes _,
# : becomes %, and .. becomes .#.
ref_version() {
	printf '%s' "$1" | sed 's/~/_/g; s/:/%/g; s/\.\./.#./g'
}

base_tag() {
	printf 'base/linux-source-%s' "$(ref_version "$(pkg_version)")"
}

tgit() {
	git -C "$TREE" "$@"
}

require_tree() {
	if [ ! -d "$TREE/.git" ] || ! tgit rev-parse -q --verify "refs/tags/$(base_tag)^{commit}" >/dev/null 2>&1; then
		die "no kernel tree for KVER=$KVER at $TREE (run 'make tree')"
	fi
}

# untracked DIR: the untracked files of kernel tree DIR that the kernel's own
# top-level .gitignore does not ignore. The tarball's .gitignore ends with
# Debian's stanza ("/*", then "!/debian/"), which hides every new top-level
# path, so `git status` cannot be trusted to show new files; without that
# stanza, the kernel's rules still ignore what a developer leaves in a tree
# (tags, cscope.out, .kunit/). Subdirectories' .gitignore files are not
# read: they hide in-tree build output, and we only build with O=.
# (git reads an exclude file by its size: a pipe reads as empty.)
untracked() {
	local ex rc=0
	ex=$(mktemp)
	grep -s -v -x -F -e '/*' -e '!/debian/' "$1/.gitignore" >"$ex" || true
	# A top-level catch-all left means a stanza of another shape: use no
	# rule at all rather than hide every new file.
	! grep -q -x -e '/\*' -e '\*' "$ex" || : >"$ex"
	git -C "$1" ls-files --others --exclude-from="$ex" || rc=$?
	rm -f "$ex"
	return "$rc"
}

tree_dirty() {
	[ -n "$(tgit status --porcelain --untracked-files=no)" ] && return 0
	[ -n "$(untracked "$TREE" | head -n 1)" ]
}

require_clean_tree() {
	if tree_dirty; then
		die "kernel tree $TREE has uncommitted changes; commit or stash them first (nothing touched)"
	fi
}

# The number N of revision vN.
rev_number() {
	printf '%s' "${1#v}"
}

export SYNC_REF=refs/safer-fput/synced

# require_synced: everything on the branch is in series/KVER/$REV (it has
# not moved since the last import or export).
require_synced() {
	[ "$(tgit rev-parse "$BRANCH")" = "$(tgit rev-parse -q --verify "$SYNC_REF" || true)" ] ||
		die "$BRANCH has commits not in $(repo_path "$SERIES_DIR/$REV"); run 'make export' first (nothing touched)"
}

branch_exists() {
	tgit rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null
}

# The base tag series/KVER/series.conf names must be the one the tree holds.
series_base() {
	require_series
	tgit rev-parse -q --verify "refs/tags/$SERIES_BASE_TAG^{commit}" >/dev/null ||
		die "series is based on $SERIES_BASE_TAG (linux-source-$SERIES_KVER $SERIES_PKGVER) but $TREE does not have it (tree has $(base_tag)): install that package version and run 'make tree', or fix $(repo_path "$SERIES_CONF")"
	printf '%s' "$SERIES_BASE_TAG"
}

# The base a gate, its record and a LAVA job name: the series' base in the
# series' tree (which may be older than the installed package's, until
# `make rebase-base`), the installed package's in another tree (make boot
# KVER=...).
gate_base_tag() {
	if [ "$KVER" = "${SERIES_KVER:-}" ]; then
		printf '%s' "$SERIES_BASE_TAG"
	else
		base_tag
	fi
}

# missing_base REF: die, saying why $TREE has no base tag REF. The series'
# own base is named with the package version it came from, which the tree
# only has if `make tree` imported that version.
missing_base() {
	if [ "$KVER" = "${SERIES_KVER:-}" ] && [ "$1" = "$SERIES_BASE_TAG" ]; then
		series_base >/dev/null
	fi
	die "$TREE has no tag $1 (run 'make tree')"
}

# The b4 cover commit: the first commit after the base whose message carries
# b4's tracking block.
cover_commit() {
	local c
	c=$(tgit rev-list --reverse "$(series_base)..${1:-$BRANCH}" | head -n 1)
	if [ -z "$c" ] || ! tgit cat-file commit "$c" | grep -q '^--- b4-submit-tracking ---$'; then
		die "$BRANCH has no b4 cover commit right after $SERIES_BASE_TAG (was it made by 'make series'?)"
	fi
	printf '%s' "$c"
}

# The revision b4's tracking block in a cover message names.
cover_revision() {
	sed -n '/^--- b4-submit-tracking ---$/,$p' "$1" | sed -n 's/^ *"revision": \([0-9]*\).*/\1/p' | head -n 1
}

# export_branch DIR [REF]: write the branch (or REF, a state of it) as series
# files into DIR: the patches after the cover commit, and the cover commit's
# exact message as cover.txt. Pinned options make the output independent of
# the user's git config.
export_branch() {
	local dir=$1 ref=${2:-$BRANCH} cover
	cover=$(cover_commit "$ref")
	tgit -c core.abbrev=12 -c diff.algorithm=myers -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false -c diff.renames=true -c format.signOff=false \
		-c format.coverLetter=false -c format.numbered=auto \
		format-patch -q --zero-commit --no-signature \
		-o "$dir" "$cover..$ref" >/dev/null
	tgit cat-file commit "$cover" | sed '1,/^$/d' >"$dir/cover.txt"
}

# series_matches DIR: does DIR (from export_branch) equal series/KVER/$REV
# and cover-letters/KVER/$REV.txt byte for byte?
series_matches() {
	local dir=$1 f
	cmp -s "$dir/cover.txt" "$COVER_DIR/$REV.txt" || return 1
	for f in "$dir"/*.patch "$SERIES_DIR/$REV"/*.patch; do
		[ -e "$f" ] || continue
		cmp -s "$dir/${f##*/}" "$SERIES_DIR/$REV/${f##*/}" || return 1
	done
}

# The tree's MAINTAINERS with MAINTAINERS.local appended, for
# get_maintainer.pl --mpath (which takes a single file); one per base, as
# each tree's git config names its own.
merged_maintainers() {
	local out=$WORKDIR/MAINTAINERS-$KVER.merged
	cat "$TREE/MAINTAINERS" "$TOP/MAINTAINERS.local" >"$out"
	printf '%s' "$out"
}

# scratch_worktree DIR REF: a detached worktree of $TREE at REF in DIR, made
# on first use and moved to REF after, with nothing untracked left over (a
# fault fixture's new file, say). Builds, checks and faults run there, so
# $TREE's checkout and its branches are never touched; builds use O=, so
# cleaning loses no objects, and unchanged files keep their mtimes.
scratch_worktree() {
	local dir=$1 ref=$2
	tgit rev-parse -q --verify "$ref^{commit}" >/dev/null ||
		die "$ref is not a commit in $TREE"
	# A worktree of a tree that 'make tree' extracted afresh since is stale.
	if [ -e "$dir/.git" ] &&
		[ "$(git -C "$dir" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$TREE/.git" ]; then
		rm -rf "$dir"
	fi
	if [ -e "$dir/.git" ]; then
		git -C "$dir" checkout -q -f --detach "$ref" ||
			die "cannot check out $ref in $dir"
		git -C "$dir" clean -q -fdx
	else
		tgit worktree prune
		mkdir -p "${dir%/*}"
		tgit worktree add -q --detach "$dir" "$ref" >/dev/null 2>&1 ||
			die "cannot add a worktree of $ref at $dir"
	fi
}
