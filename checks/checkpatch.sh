#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh - every patch of the revision is `checkpatch.pl --strict` clean.
#
# Runs the tree's own checkpatch on the commits of the branch (checkpatch's
# exit code is reliable), one line per patch, one verdict line.
#
# checkpatch asks "does MAINTAINERS need updating?" of every patch that adds
# a file. This check answers it instead: each added file must be covered by
# an F: entry of the tree's MAINTAINERS or of MAINTAINERS.local, or the
# patch fails.
#
# Each patch's result (pass or fail, and its log) is kept in
# $WORKDIR/results/KVER/vN/checkpatch/, keyed by what checkpatch reads of the
# patch (author, message, diff, get_maintainer.pl), the tree's checkpatch,
# spdxcheck.py and their data and config files, the merged MAINTAINERS and
# these scripts; a later run reuses it while the key holds (checkpatch is
# deterministic: a failure is reused too).
set -euo pipefail
PROG=checkpatch
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
maint=$(merged_maintainers)
results=$WORKDIR/results/$KVER/$REV/checkpatch
mkdir -p "$results"
table_open checkpatch
# Everything checkpatch reads besides the patch: its data files, spdxcheck.py
# and the licenses it checks against, the merged MAINTAINERS, and the
# .checkpatch.conf and .get_maintainer.conf files the two scripts look for
# (in the directory they run in, $HOME, .scripts). checkpatch runs
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
failed=0 n=0 bad='' reused=0
for c in $(check_commits); do
	n=$((n + 1))
	subj=$(tgit log -1 --format=%s "$c")
	res=$results/$( (tgit show --no-color --format='%an <%ae>%n%B' --patch "$c"
		tgit ls-tree "$c" -- scripts/get_maintainer.pl .get_maintainer.conf \
			.get_maintainer.ignore .scripts/) |
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
		if [ -z "$out" ] && out=$(cd "$TREE" && scripts/checkpatch.pl --strict --color=never \
			--ignore FILE_PATH_CHANGES --summary-file -q -g "$c" 2>&1); then
			result=pass
		else
			result=fail
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
