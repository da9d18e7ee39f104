#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# bisect.bats - make bisect: git bisect run over the series, with the boot
# replaced by a stub (BISECT_STEP) that fails the way a seeded commit says:
# what is tested is the bisection, not the boot (tests/gate.bats boots).

load helpers

setup_file() {
	series_copy
	# The stub: STEP CONFIG SRC BUILD, boot.sh's verdict line for SRC
	# (the current revision's, written in; the rest is the stub's).
	STUB=$BATS_FILE_TMPDIR/step
	cat >"$STUB" <<-SH
	#!/bin/sh
	if [ -e "\$2/SAFER_FPUT_BAD" ]; then
		echo "gate $CUR_REV x86_64 \$1: FAIL: not ok: seeded.bad (and 2 more)"
	elif [ -e "\$2/SAFER_FPUT_OTHER" ]; then
		echo "gate $CUR_REV x86_64 \$1: FAIL: something else"
	else
		echo "gate $CUR_REV x86_64 \$1: PASS (stub)"
	fi
	SH
	chmod +x "$STUB"
	export STUB
}

teardown_file() {
	drop_scratch "$TEST_WORKDIR/bisect"
}

teardown() {
	restore_branch
}

# commit SUBJECT [add FILE | rm FILE]: a commit on the branch.
commit() {
	local subj=$1
	case ${2:-} in
	add) touch "$TEST_WORKDIR/linux-6.1/$3" && tgit add -f "$3" ;;
	rm) tgit rm -q "$3" ;;
	esac
	tgit -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m "$subj"
}

@test "make bisect: names the first patch that fails the same way, skips other failures" {
	save_branch
	tgit checkout -q b4/safer-fput
	n=$(($(tgit rev-list --count "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")..b4/safer-fput") - 1))
	commit "test: fail for another reason" add SAFER_FPUT_OTHER
	commit "test: still fail for it"
	commit "test: stop failing" rm SAFER_FPUT_OTHER
	commit "test: seed the failure" add SAFER_FPUT_BAD
	commit "test: a later patch"
	run env BISECT_STEP="$STUB" make -s -C "$R" WORKDIR="$TEST_WORKDIR" KVER="$DEF_KVER" bisect
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(verdict "bisect $CUR_REV")" = "bisect $CUR_REV x86_64 lockdep: first bad: $((n + 4))/$((n + 5)) test: seed the failure: not ok: seeded.bad" ]
	# A commit that fails otherwise was met, and skipped, not taken as bad.
	[[ "$output" == *" test: "*" for"*": FAIL: something else (another failure: skipped)"* ]]
	# After a failed make gate: the reason comes from the verdict it left,
	# whose log path (and CPU, PID, line numbers) need not match a step's.
	v=$TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep/safer-fput.verdict
	mkdir -p "${v%/*}"
	printf 'head %s\ngate %s x86_64 lockdep: FAIL: not ok: seeded.bad (see %s)\n' \
		"$(tgit rev-parse b4/safer-fput)" "$CUR_REV" "$TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep/boot/console.log" >"$v"
	run env BISECT_STEP="$STUB" make -s -C "$R" WORKDIR="$TEST_WORKDIR" KVER="$DEF_KVER" bisect
	echo "$output"
	[[ "$output" == *"bisect: the head "*" fails the gate with: not ok: seeded.bad ($v)"* ]]
	[ "$(verdict "bisect $CUR_REV")" = "bisect $CUR_REV x86_64 lockdep: first bad: $((n + 4))/$((n + 5)) test: seed the failure: not ok: seeded.bad" ]
	# A verdict of another head (or a dirty tree) is not the head's.
	sed -i '1s/$/+dirty/' "$v"
	run env BISECT_STEP="$STUB" WORKDIR="$TEST_WORKDIR" "$R/boot/bisect.sh" --if-failed lockdep
	rm -f "$v"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# The branch and the tree's checkout are where they were.
	[ "$(tgit log -1 --format=%s b4/safer-fput)" = "test: a later patch" ]
	[ "$(tgit symbolic-ref --short HEAD)" = b4/safer-fput ]
}

@test "make bisect: a head that passes or gives no verdict has no answer" {
	save_branch
	tgit checkout -q b4/safer-fput
	run env BISECT_STEP="$STUB" make -s -C "$R" WORKDIR="$TEST_WORKDIR" KVER="$DEF_KVER" bisect
	[ "$status" -ne 0 ]
	[ "$(verdict "bisect $CUR_REV")" = "bisect $CUR_REV x86_64 lockdep: FAIL: the head passes: nothing to bisect" ]
	# Every commit fails when the stub is told to: so does the base.
	run env BISECT_STEP=false make -s -C "$R" WORKDIR="$TEST_WORKDIR" KVER="$DEF_KVER" bisect
	[ "$status" -ne 0 ]
	[ "$(verdict "bisect $CUR_REV")" = "bisect $CUR_REV x86_64 lockdep: FAIL: the head gives no verdict: nothing to bisect" ]
}
