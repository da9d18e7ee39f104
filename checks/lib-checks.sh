# SPDX-License-Identifier: GPL-2.0
# lib-checks.sh - what the checks/ scripts share; sourced, never run.
# shellcheck shell=bash

# shellcheck source=../boot/lib-boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/../boot/lib-boot.sh"

# The commits under check: the patches of $BRANCH after the b4 cover commit
# (CHECK_RANGE=BASE..HEAD overrides it, for the tests' fixture series).
check_range() {
	if [ -n "${CHECK_RANGE:-}" ]; then
		printf '%s' "$CHECK_RANGE"
	else
		printf '%s..%s' "$(cover_commit)" "$BRANCH"
	fi
}

check_commits() {
	tgit rev-list --reverse --no-merges "$(check_range)"
}

# The checks work in the gate's worktree (boot/lib-boot.sh): $TREE's
# checkout and its branches are never touched.
CHECK_WT=$GATE_WT
check_worktree() {
	scratch_worktree "$CHECK_WT" "$1"
}

# verdict NAME FAILURES DETAIL: the one line every check ends with.
verdict() {
	if [ "$2" -eq 0 ]; then
		printf 'check-%s %s: PASS (%s)\n' "$1" "$REV" "$3"
	else
		printf 'check-%s %s: FAIL: %s\n' "$1" "$REV" "$3"
		exit 1
	fi
}
workdir_lock
