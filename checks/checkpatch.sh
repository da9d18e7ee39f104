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
set -euo pipefail
PROG=checkpatch
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
maint=$(merged_maintainers)
failed=0 n=0 bad=
for c in $(check_commits); do
	n=$((n + 1))
	subj=$(tgit log -1 --format=%s "$c")
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
		printf '  ok   %s\n' "$subj"
	else
		failed=$((failed + 1))
		bad="$bad${bad:+, }'$subj'"
		printf '  FAIL %s\n' "$subj"
		printf '%s\n' "$out" | sed 's/^/       /'
	fi
done
[ "$n" -gt 0 ] || die "no commits to check in $(check_range)"
if [ "$failed" -eq 0 ]; then
	verdict checkpatch 0 "$n patches, --strict clean"
else
	verdict checkpatch "$failed" "$failed of $n patches: $bad"
fi
