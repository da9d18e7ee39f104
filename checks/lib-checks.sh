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

# The revision's per-patch table of a check, results/KVER/vN/NAME.tsv: a
# "# head COMMIT" line (the head it is of: boot.sh --record copies the
# tables of the gated head into the record, mail/cover.sh shows them),
# then "N<TAB>pass|fail|skip<TAB>subject" per patch. A fixture's range
# (CHECK_RANGE) is not the revision's: its table is dropped.
table_open() { # NAME
	TABLE=$WORKDIR/results/$KVER/$REV/$1.tsv
	mkdir -p "${TABLE%/*}"
	printf '# head %s\n' "$(tgit rev-parse "$(check_range | sed 's/.*\.\.//')")" >"$TABLE.tmp"
}
table_row() { # N RESULT SUBJECT
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$TABLE.tmp"
}
table_close() {
	if [ -z "${CHECK_RANGE:-}" ]; then
		mv "$TABLE.tmp" "$TABLE"
	else
		rm -f "$TABLE.tmp"
	fi
}

# The checks work in the gate's worktree (boot/lib-boot.sh): $TREE's
# checkout and its branches are never touched.
CHECK_WT=$GATE_WT
check_worktree() {
	scratch_worktree "$CHECK_WT" "$1"
}

# verdict NAME FAILURES DETAIL: the one line every check ends with; a FAIL
# ends with the make command that redoes the check (a fixture's range,
# CHECK_RANGE, is passed as it was).
verdict() {
	if [ "$2" -eq 0 ]; then
		printf 'check-%s %s: PASS (%s)\n' "$1" "$REV" "$3"
	else
		printf 'check-%s %s: FAIL: %s; reproduce: %s\n' "$1" "$REV" "$3" \
			"$(reproduce "check-$1" ${CHECK_RANGE:+"CHECK_RANGE=$CHECK_RANGE"})"
		exit 1
	fi
}
workdir_lock

# compiled_as BUILD FILE: the object of BUILD that compiled kernel source
# FILE, relative to BUILD: FILE's own .o, or, for a .c file another one
# #includes (fs/tests/*_kunit.c is built into fs/*.o that way), the object
# whose kbuild dependency list (.NAME.o.cmd, written by fixdep) names it.
# Prints nothing when no object did.
compiled_as() {
	local build=$1 f=$2 cmd
	if [ -e "$build/${f%.c}.o" ]; then
		printf '%s' "${f%.c}.o"
		return
	fi
	# The includer is in the same top-level directory (fs/ for fs/tests/).
	cmd=$(grep -rlsF --include='.*.o.cmd' "/$f \\" "$build/${f%%/*}" | head -n 1)
	[ -n "$cmd" ] || return 0
	cmd=${cmd#"$build"/}
	cmd=${cmd%.cmd}
	printf '%s/%s' "$(dirname "$cmd")" "$(basename "$cmd" | sed 's/^\.//')"
}
