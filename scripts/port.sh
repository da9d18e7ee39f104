#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# port.sh - apply one base's series revision to another base's tree, on a
# scratch branch, and say per patch what happened.
#
# The source revision (series/FROM/REV, FROM's current one by default) is
# first made into commits on FROM's base inside TO's tree: FROM's base is
# fetched from FROM's tree (refs/safer-fput/src/FROM/base, a few seconds
# once) and the patches applied with git am, kept as
# refs/safer-fput/src/FROM/REV. That gives `git am -3` the preimage of every
# patch, and mail/cover.sh a range-diff between the two bases' series.
# Then each patch is applied to TO's base, in order, in a detached worktree
# ($WORKDIR/port/linux-TO), and reported as one of:
#   applied                  git apply takes it as it is
#   applied with fuzz        at other line numbers, or only by a 3-way merge
#   conflicts                the 3-way merge leaves conflicts: skipped
#   already upstream         the 3-way merge leaves nothing to commit: skipped
# The result becomes branch port/safer-fput-FROM-REV of TO's tree. Neither
# TO's checkout nor its b4/safer-fput is touched; a port branch that holds
# commits a former make port did not make is never overwritten.
#
# usage: FROM=6.1 TO=6.12 [PORT_REV=v3] port.sh   (KVER=TO, from the Makefile)
set -euo pipefail
PROG=port
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ -z "${FROM:-}" ] || [ -z "${TO:-}" ]; then
	die "usage: make port FROM=KVER TO=KVER [REV=vN] (bases: $(list_bases))"
fi
[ "$FROM" != "$TO" ] || die "FROM and TO are the same base ($FROM)"
[ "$KVER" = "$TO" ] || die "KVER=$KVER but TO=$TO: the target tree is KVER's"
src_conf=$TOP/series/$FROM/series.conf
[ -f "$src_conf" ] || die "no series for FROM=$FROM (bases: $(list_bases))"
src_field() { # NAME: a field of FROM's series.conf
	# shellcheck source=/dev/null
	(. "$src_conf" && eval "printf '%s' \"\${$1:-}\"")
}
src_rev=${PORT_REV:-$(src_field SERIES_CURRENT)}
src_dir=$TOP/series/$FROM/$src_rev
src_base=$(src_field SERIES_BASE_TAG)
[ -d "$src_dir" ] ||
	die "no revision $src_rev of base $FROM (have: $(SERIES_DIR=$TOP/series/$FROM list_revs))"
patches=("$src_dir"/*.patch)
[ -e "${patches[0]}" ] || die "series/$FROM/$src_rev has no patches"

workdir_lock
check_kver
require_tree
src_tree=$WORKDIR/linux-$FROM
git -C "$src_tree" rev-parse -q --verify "refs/tags/$src_base^{commit}" >/dev/null 2>&1 ||
	die "no tag $src_base in $src_tree: the port needs FROM's base (run 'make tree KVER=$FROM')"
# TO's base: its series' base once it has one, else the installed package's.
if [ -f "$TOP/series/$TO/series.conf" ]; then
	# shellcheck source=/dev/null
	dst_base=$(. "$TOP/series/$TO/series.conf" && printf '%s' "$SERIES_BASE_TAG")
else
	dst_base=$(base_tag)
fi
tgit rev-parse -q --verify "refs/tags/$dst_base^{commit}" >/dev/null ||
	missing_base "$dst_base"

name=$SERIES_NAME-$FROM-$src_rev
port_branch=refs/heads/port/$name
made_ref=refs/safer-fput/port-made/$name
src_ref=refs/safer-fput/src/$FROM/$src_rev
if tgit rev-parse -q --verify "$port_branch" >/dev/null &&
	[ "$(tgit rev-parse "$port_branch")" != "$(tgit rev-parse -q --verify "$made_ref" || true)" ]; then
	die "${port_branch#refs/heads/} in $TREE has commits no make port made; rename or delete it (nothing touched)"
fi
[ "$(tgit symbolic-ref -q HEAD || true)" != "$port_branch" ] ||
	die "${port_branch#refs/heads/} is checked out in $TREE; check out another branch first (nothing touched)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wt=$WORKDIR/port/linux-$TO
wgit() {
	git -C "$wt" "$@"
}
# Commits made here are reproducible: committer = author, dated as authored.
export GIT_COMMITTER_NAME="safer-fput port" GIT_COMMITTER_EMAIL="safer-fput@localhost"

# The source series as commits on its own base, in TO's object store.
if ! tgit rev-parse -q --verify "refs/safer-fput/src/$FROM/base" >/dev/null; then
	note "fetching $src_base from $src_tree (once; about 10 s)"
	# The import's pack has no deltas: do not search for any to send it.
	tgit fetch -q --no-tags --upload-pack="git -c pack.window=0 upload-pack" \
		"$src_tree" "+refs/tags/$src_base:refs/safer-fput/src/$FROM/base" ||
		die "cannot fetch $src_base from $src_tree"
fi
[ "$(tgit rev-parse "refs/safer-fput/src/$FROM/base^{commit}")" = \
	"$(git -C "$src_tree" rev-parse "refs/tags/$src_base^{commit}")" ] ||
	die "refs/safer-fput/src/$FROM/base in $TREE is not $src_base of $src_tree; delete it and rerun"
# Made again only when series/FROM/REV changed: the checkout of another
# base costs a minute.
src_sum=$(cat "${patches[@]}" | sha256sum | cut -d' ' -f1)
if [ "$(tgit config --get "safer-fput.port-src-${FROM//./-}-$src_rev" || true)" != "$src_sum" ] ||
	! tgit rev-parse -q --verify "$src_ref" >/dev/null; then
	note "making series/$FROM/$src_rev into commits on $FROM's base (about a minute)"
	scratch_worktree "$wt" "refs/safer-fput/src/$FROM/base"
	for p in "${patches[@]}"; do
		wgit am -q --committer-date-is-author-date "$p" >"$tmp/am.log" 2>&1 || {
			wgit am --abort >/dev/null 2>&1 || true
			die "series/$FROM/$src_rev/${p##*/} does not apply to its own base $src_base: fix series/$FROM first"
		}
	done
	tgit update-ref "$src_ref" "$(wgit rev-parse HEAD)"
	tgit config "safer-fput.port-src-${FROM//./-}-$src_rev" "$src_sum"
fi

# The same patches on TO's base.
note "applying series/$FROM/$src_rev (${#patches[@]} patches) to $dst_base"
scratch_worktree "$wt" "refs/tags/$dst_base"
n=0 applied=0 fuzz=0 conflicts=0 upstream=0 bad=
total=${#patches[@]}
mapfile -t subjects < <(tgit log --reverse --format=%s "refs/safer-fput/src/$FROM/base..$src_ref")
for p in "${patches[@]}"; do
	subject=${subjects[n]}
	n=$((n + 1))
	before=$(wgit rev-parse HEAD)
	how=
	if wgit apply --check -v "$p" >"$tmp/check.log" 2>&1; then
		grep -q '^Hunk #[0-9]* succeeded at .*offset' "$tmp/check.log" && how="at other line numbers"
	else
		how="by 3-way merge"
	fi
	if wgit am -q -3 --committer-date-is-author-date "$p" >"$tmp/am.log" 2>&1; then
		if [ "$(wgit rev-parse HEAD)" = "$before" ]; then
			result="already upstream" detail="empty after a 3-way merge"
			upstream=$((upstream + 1))
		elif [ -z "$how" ]; then
			result="applied" detail=
			applied=$((applied + 1))
		else
			result="applied with fuzz" detail=$how
			fuzz=$((fuzz + 1))
		fi
	else
		files=$(wgit diff --name-only --diff-filter=U | tr '\n' ' ')
		if [ -z "$files" ] && wgit diff --cached --quiet; then
			result="already upstream" detail="empty after a 3-way merge"
			upstream=$((upstream + 1))
		elif [ -n "$files" ]; then
			result="conflicts" detail="in ${files% }"
			conflicts=$((conflicts + 1))
			bad="$bad $n"
		else
			result="conflicts" detail=$(grep -m 1 '^error:' "$tmp/am.log" || echo 'git am failed')
			conflicts=$((conflicts + 1))
			bad="$bad $n"
		fi
		wgit am --skip >/dev/null 2>&1 || wgit am --abort >/dev/null 2>&1 || true
		wgit reset -q --hard "$before"
	fi
	printf '[%2d/%d] %-17s %s%s\n' "$n" "$total" "$result" "$subject" "${detail:+ ($detail)}"
done

head=$(wgit rev-parse HEAD)
tgit update-ref -m "make port FROM=$FROM TO=$TO" "$port_branch" "$head"
tgit update-ref "$made_ref" "$head"
counts="$applied applied, $fuzz with fuzz, $upstream already upstream, $conflicts conflicting"
if [ "$conflicts" -gt 0 ]; then
	repro="make -C $(printf '%q' "$TOP") port FROM=$FROM TO=$TO REV=$src_rev"
	[ "$WORKDIR" = "$HOME/.cache/safer-fput" ] || repro="$repro WORKDIR=$(printf '%q' "$WORKDIR")"
	printf 'port %s/%s -> %s: FAIL: %d of %d patches do not apply (%s): %s; the rest is on %s; reproduce: %s\n' \
		"$FROM" "$src_rev" "$TO" "$conflicts" "$total" "${bad# }" "$counts" "${port_branch#refs/heads/}" "$repro"
	exit 1
fi
printf 'port %s/%s -> %s: PASS (%d patches: %s) on %s\n' "$FROM" "$src_rev" "$TO" "$total" "$counts" \
	"${port_branch#refs/heads/}"
