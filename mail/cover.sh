#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cover.sh - refresh the results block of cover-letters/$KVER/$REV.txt and the
# cover commit of branch b4/safer-fput.
#
# The block (between '#' marker lines, which b4 drops when sending) holds,
# for every cell of boot/gate-matrix, the verdict of the gate record in
# $WORKDIR/gate/KVER/ that gated these patches (or that no record did),
# and the range-diff against the sent previous revision (tag
# sent/safer-fput-v(N-1), `b4 prep --compare-to`), and for a revision ported
# from another base, the range-diff against that base's series (make port).
# It names no commit id that
# a rebuild of the branch changes (only tree ids), so a second run on the same
# patches changes nothing. Then the branch is rebuilt from the edited cover
# (scripts/series.sh) and `b4 prep --auto-to-cc` adds the To/Cc trailers
# (get_maintainer.pl on MAINTAINERS + MAINTAINERS.local); a change is written
# back with scripts/export.sh.
#
# usage: cover.sh [--check]   --check: exit 1 if the block is not current
set -euo pipefail
PROG=cover
# shellcheck source=lib-mail.sh
. "$(dirname "$0")/lib-mail.sh"
workdir_lock
# shellcheck source=../boot/lib-boot.sh
. "$TOP/boot/lib-boot.sh"

check=
[ "${1:-}" = --check ] && check=1
check_rev
require_tree
branch_exists || die "no branch $BRANCH in $TREE (run 'make series')"
base=$(series_base)
cover_file=$COVER_DIR/$REV.txt
[ -f "$cover_file" ] || die "no $(repo_path "$cover_file") (run 'make export')"
n=$(rev_number "$REV")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gated_record REC: REC is a gate record of exactly these patches (an older
# or newer state of the branch is another record's business).
gated_record() {
	local rhead
	[ -f "$1" ] || return 1
	rhead=$(sed -n 's/^head \([0-9a-f]*\)$/\1/p' "$1")
	[ -n "$rhead" ] || return 1
	tgit cat-file -e "$rhead^{commit}" 2>/dev/null || return 1
	tgit merge-base --is-ancestor "$base" "$rhead" || return 1
	(cover_commit "$rhead") >/dev/null 2>&1 || return 1
	patches "$rhead" | cmp -s - "$tmp/patches"
}

# patches REF: what identifies the patches of a branch state whatever the
# cover says: per commit after the cover, its tree, author and message.
patches() {
	tgit log --reverse --format='%T %an <%ae>%n%B' "$(cover_commit "$1")..$1"
}

head=$(tgit rev-parse "$BRANCH")
patches "$head" >"$tmp/patches"
matrix_cells >/dev/null # a bad matrix line is an error of its own
tree=$(tgit rev-parse "$head^{tree}")

{
	printf 'Gate results (make gate) for this revision, kernel tree %s:\n' "${tree:0:12}"
	gated=0 cells=0
	while read -r arch config; do
		cells=$((cells + 1))
		load_arch "$arch"
		rec=$(record_file "$config")
		if gated_record "$rec"; then
			sed -n 's/^verdict /  /p' "$rec"
			sed -n 's/^patch //p' "$rec" >>"$tmp/per-patch"
			sed -n 's/^kconfig-sha256 \(.\{12\}\).*/    kconfig sha256 \1/p' "$rec"
			gated=$((gated + 1))
		else
			printf '  gate %s %s %s: not gated yet (make gate ARCH=%s CONFIG=%s)\n' \
				"$REV" "$arch" "$config" "$arch" "$config"
		fi
	done < <(matrix_cells)
	[ "$gated" = "$cells" ] || printf '  (%d of %d cells gated: gate them, then make cover again)\n' "$gated" "$cells"
	# The per-patch results the records carry (make check: checkpatch,
	# each cell's per-commit build), one row per patch, one column per
	# check; a cell's build appears once whatever records name it.
	if [ -s "$tmp/per-patch" ]; then
		printf '\nPer-patch checks (make check) of the gated patches:\n'
		sort -u "$tmp/per-patch" | awk -F'\t' '
			!($1 in col) { col[$1] = ++ncol; name[ncol] = $1 }
			{ r[$2, col[$1]] = $3; subj[$2] = $4; if ($2 > n) n = $2 }
			END {
				printf "  %5s", ""
				for (c = 1; c <= ncol; c++) printf "  %s", name[c]
				printf "\n"
				for (p = 1; p <= n; p++) {
					printf "  %2d/%-2d", p, n
					for (c = 1; c <= ncol; c++)
						printf "  %-*s", length(name[c]), ((p, c) in r) ? r[p, c] : "-"
					printf "  %s\n", subj[p]
				}
			}'
	fi
	prev=$((n - 1))
	if [ "$prev" -ge 1 ] && tgit rev-parse -q --verify "refs/tags/$(sent_tag "$prev")" >/dev/null; then
		printf '\nRange-diff against v%d (as sent):\n' "$prev"
		[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] ||
			die "$TREE is not on branch $BRANCH (run 'make series')"
		(cd "$TREE" && b4 prep --compare-to "v$prev") >"$tmp/rd" 2>"$tmp/rd.err" || {
			cat "$tmp/rd.err" >&2
			die "b4 prep --compare-to v$prev failed"
		}
		# Drop the new side's commit ids: they change with every edit
		# of the cover commit, the patches do not.
		sed -E 's/^( *([0-9]+|-): +[0-9a-f-]+ [=!<>] +([0-9]+|-): +)[0-9a-f]{7,} /\1/' "$tmp/rd"
	fi
	# A revision ported from another base's series (series.conf's
	# SERIES_PORTED_FROM=KVER/vN): what changed from that series, against
	# the commits make port made of it in this tree. Commit ids are
	# dropped on both sides: neither side's means anything to a reader.
	if [ -n "${SERIES_PORTED_FROM:-}" ]; then
		from_kver=${SERIES_PORTED_FROM%/*} from_rev=${SERIES_PORTED_FROM#*/}
		src=refs/safer-fput/src/$from_kver/$from_rev
		tgit rev-parse -q --verify "$src" >/dev/null ||
			die "no $src in $TREE for SERIES_PORTED_FROM=$SERIES_PORTED_FROM: run 'make port FROM=$from_kver TO=$KVER REV=$from_rev' first"
		printf '\nRange-diff against %s (the %s series this revision was ported from):\n' \
			"$SERIES_PORTED_FROM" "$from_kver"
		tgit -c core.abbrev=12 range-diff --no-color \
			"refs/safer-fput/src/$from_kver/base..$src" "$(cover_commit "$head")..$head" >"$tmp/prd" ||
			die "git range-diff against $SERIES_PORTED_FROM failed"
		sed -E 's/^( *([0-9]+|-): +)[0-9a-f-]+ ([=!<>] +([0-9]+|-): +)[0-9a-f-]+ /\1\3/' "$tmp/prd"
	fi
} >"$tmp/block"

"$MAIL/cover-block" "$cover_file" "$tmp/block" >"$tmp/cover"
if [ -n "$check" ]; then
	cmp -s "$tmp/cover" "$cover_file" ||
		die "the results block of $(repo_path "$cover_file") is not current; run 'make cover'"
	exit 0
fi

if cmp -s "$tmp/cover" "$cover_file"; then
	note "$(repo_path "$cover_file"): results block already current"
else
	cp "$tmp/cover" "$cover_file"
	note "$(repo_path "$cover_file"): results block refreshed"
	"$TOP/scripts/series.sh"
fi

# To/Cc trailers: b4 0.12 uses send-auto-to-cmd only in prep --auto-to-cc,
# which rewrites the cover commit; export.sh brings that back to the repo.
mail_config
before=$(tgit rev-parse "$BRANCH")
[ "$(tgit symbolic-ref -q HEAD)" = "refs/heads/$BRANCH" ] || tgit checkout -q "$BRANCH"
(cd "$TREE" && b4 prep --auto-to-cc) >"$tmp/cc.log" 2>&1 || {
	cat "$tmp/cc.log" >&2
	die "b4 prep --auto-to-cc failed"
}
if [ "$(tgit rev-parse "$BRANCH")" != "$before" ]; then
	note "b4 prep --auto-to-cc added To/Cc trailers"
	"$TOP/scripts/export.sh"
fi
if grep -v '^#' "$cover_file" | grep -q EDITME; then
	note "$(repo_path "$cover_file") still has EDITME lines: write them before 'make send'"
fi
head=$(tgit rev-parse "$BRANCH")
if "$TOP/boot/gate-check" >/dev/null 2>&1; then
	note "$BRANCH at ${head:0:12}: the gate record is valid for it"
else
	note "$BRANCH at ${head:0:12}: no valid gate record for this head (gate-check); run 'make gate'"
fi
