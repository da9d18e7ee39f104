#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh - every patch of the revision is `checkpatch.pl --strict` clean.
#
# Runs the tree's own checkpatch on the commits of the branch (checkpatch's
# exit code is reliable), one line per patch, one verdict line. It runs
# twice per patch, and the patch passes only if both pass:
#
#  - in $TREE on the commit (-g), which sees the tree: the SPDX licence
#    check (spdxcheck.py), obsolete files (get_maintainer.pl --status) and
#    the CamelCase seed need a kernel tree and its git;
#  - on the patch as it is mailed (git format-patch), with --no-tree, from
#    a fresh empty directory and with GIT_DIR unset, as a maintainer runs
#    it on the file. checkpatch looks for a git repository only at
#    $GIT_DIR or ./.git; in $TREE it looks up each commit a message names
#    (`commit <sha1> ("<title>")`), and our trees are imported from
#    tarballs with no upstream history: the lookup finds nothing and the
#    commit-description check is skipped without a word. Outside a git
#    repository nothing is looked up and the form of every reference is
#    checked (the title itself only a tree with the history can check).
#
# checkpatch asks "does MAINTAINERS need updating?" of every patch that adds
# a file. This check answers it instead: each added file must be covered by
# an F: entry of the tree's MAINTAINERS or of MAINTAINERS.local, or the
# patch fails.
#
# Each patch's result (pass or fail, and its log) is kept in
# $WORKDIR/results/KVER/vN/checkpatch/, keyed by what checkpatch reads of the
# patch (author, message, diff, the mailed file, get_maintainer.pl), the
# tree's checkpatch, spdxcheck.py and their data and config files, the
# merged MAINTAINERS and these scripts; a later run reuses it while the key
# holds (checkpatch is deterministic: a failure is reused too).
set -euo pipefail
PROG=checkpatch
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
maint=$(merged_maintainers)
results=$WORKDIR/results/$KVER/$REV/checkpatch
mkdir -p "$results"
# The mailed patches, each alone in an empty directory: checkpatch's cwd.
mailed=$(mktemp -d)
trap 'rm -rf "$mailed"' EXIT
# A newer checkpatch (7.3's) reads its .checkpatch.conf from
# $CHECKPATCH_CONFIG_DIR first: only the config files in the key below may
# steer it.
unset CHECKPATCH_CONFIG_DIR
# Message types neither run reports. FILE_PATH_CHANGES: the added-file
# check below answers it. UNKNOWN_COMMIT_ID ("maybe rebased or not
# pulled?"): it looks up every `commit <sha1>` a message names, and
# neither $TREE (no upstream history) nor the mailed run (no git at all)
# knows any upstream commit, so it would flag every reference written in
# the right form. That a named commit exists and has that title, only a
# tree with the history can tell: the form is what is checked here.
ignore=FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID
table_open checkpatch
# Everything checkpatch reads besides the patch: its data files, spdxcheck.py
# and the licenses it checks against, the merged MAINTAINERS, and the
# .checkpatch.conf and .get_maintainer.conf files the two scripts look for
# (in the directory they run in, $HOME, .scripts; the mailed patch's run
# is in an empty directory: $HOME's only). checkpatch runs
# $TREE's get_maintainer.pl; the added-file check runs the commit's own in
# its worktree, where it reads that commit's config files: their blobs are
# part of each patch's key below.
key=$( (cat "$0" "$TOP/checks/lib-checks.sh" "$TREE/scripts/checkpatch.pl" \
	"$TREE/scripts/spelling.txt" "$TREE/scripts/const_structs.checkpatch" \
	"$TREE/scripts/spdxcheck.py" "$TREE/scripts/get_maintainer.pl" "$maint"
	for d in "$TREE" "$HOME" "$TREE/.scripts"; do
		for f in .checkpatch.conf .get_maintainer.conf .get_maintainer.ignore; do
			[ ! -f "$d/$f" ] || printf '%s\n' "$d/$f" "$(cat "$d/$f")"
		done
	done
	find "$TREE/LICENSES" -type f | LC_ALL=C sort | xargs cat) |
	sha256sum | cut -c1-16)
# mail_patch COMMIT DIR: COMMIT as git format-patch mails it (with the
# options export_branch pins: the user's git config changes nothing), alone
# in the new directory DIR; sets $file to its name: format-patch's without
# the number (the name shows in checkpatch's log, which a later run may
# reuse for the same patch at another position).
mail_patch() {
	mkdir "$2"
	file=$(tgit -c core.abbrev=12 -c diff.algorithm=myers -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false -c diff.renames=true -c format.signOff=false \
		-c format.coverLetter=false -c format.numbered=auto -c format.useAutoBase=false \
		format-patch --zero-commit --no-signature --no-base -o "$2" -1 "$1")
	mv "$file" "$2/${file##*/0001-}"
	file=${file##*/0001-}
	# checkpatch takes $GIT_DIR, else ./.git, for its git repository.
	[ ! -e "$2/.git" ] || die "$2/.git exists: checkpatch would take it for a git repository"
}

# checkpatch_mailed DIR FILE: checkpatch on patch DIR/FILE as a maintainer
# runs it on a mailed patch: in DIR, outside any git repository.
checkpatch_mailed() {
	(cd "$1" && env -u GIT_DIR -u GIT_WORK_TREE -u GIT_COMMON_DIR PATH="$SYS_PATH" \
		"$TREE/scripts/checkpatch.pl" --strict --no-tree --color=never \
		--ignore "$ignore" --summary-file -q "$2" 2>&1)
}

failed=0 n=0 bad='' reused=0
for c in $(check_commits); do
	n=$((n + 1))
	subj=$(tgit log -1 --format=%s "$c")
	dir=$mailed/$n
	mail_patch "$c" "$dir"
	res=$results/$( (tgit show --no-color --format='%an <%ae>%n%B' --patch "$c"
		tgit ls-tree "$c" -- scripts/get_maintainer.pl .get_maintainer.conf \
			.get_maintainer.ignore .scripts/
		printf '%s\n' "$file"
		cat "$dir/$file") |
		sha256sum | cut -c1-24)-$key
	if [ -f "$res" ]; then
		reused=$((reused + 1))
		result=$(head -n 1 "$res")
		out=$(tail -n +2 "$res")
	else
		out=
		added=$(tgit diff-tree --no-commit-id --name-only -r --diff-filter=A "$c")
		[ -z "$added" ] || check_worktree "$c"
		for f in $added; do
			(cd "$CHECK_WT" && scripts/get_maintainer.pl --no-git --no-git-fallback \
				--mpath "$maint" \
				--no-rolestats --no-l --no-r -f "$f" 2>/dev/null) | grep -q @ ||
				out="$out${out:+$'\n'}$f: added file without a MAINTAINERS or MAINTAINERS.local entry"
		done
		result=fail
		if [ -z "$out" ]; then
			tree_ok=1 mailed_ok=1
			tree_out=$(cd "$TREE" && env -u GIT_DIR -u GIT_WORK_TREE -u GIT_COMMON_DIR PATH="$SYS_PATH" \
				scripts/checkpatch.pl --strict --color=never \
				--ignore "$ignore" --summary-file -q -g "$c" 2>&1) || tree_ok=0
			mailed_out=$(checkpatch_mailed "$dir" "$file") || mailed_ok=0
			if [ "$tree_ok$mailed_ok" = 11 ]; then
				result=pass
			elif [ "$tree_ok$mailed_ok" = 00 ] &&
				[ "$(sed '/ total: /d' <<<"$tree_out")" = "$(sed '/ total: /d' <<<"$mailed_out")" ]; then
				# The same findings (a style error in the code, say): once.
				out="checkpatch, in the tree and on the mailed patch alike:"$'\n'"$mailed_out"
			else
				[ "$tree_ok" = 1 ] || out="checkpatch -g in the tree:"$'\n'"$tree_out"
				[ "$mailed_ok" = 1 ] ||
					out="$out${out:+$'\n'}checkpatch --no-tree on the mailed patch, outside git:"$'\n'"$mailed_out"
			fi
		fi
		printf '%s\n%s' "$result" "$out" >"$res.tmp"
		mv "$res.tmp" "$res"
	fi
	table_row "$n" "$result" "$subj"
	case $result in
	pass) printf '  ok   %s\n' "$subj" ;;
	*)
		failed=$((failed + 1))
		bad="$bad${bad:+, }'$subj'"
		printf '  FAIL %s\n' "$subj"
		printf '%s\n' "$out" | sed 's/^/       /'
		;;
	esac
done
[ "$n" -gt 0 ] || die "no commits to check in $(check_range)"
table_close
if [ "$failed" -eq 0 ]; then
	detail="$n patches, --strict clean"
	[ "$reused" = 0 ] || detail="$detail, $reused results reused"
	verdict checkpatch 0 "$detail"
else
	verdict checkpatch "$failed" "$failed of $n patches: $bad"
fi
