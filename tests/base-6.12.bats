#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# base-6.12.bats - the second base: `make tree series gate KVER=6.12` on the
# 6.12 series, and the seeded faults that concern the series failing its
# gate there too (the 6.12 forms of tests/fixtures/faults/6.12/ where the
# code differs, the common ones where it does not).
#
# Tagged full: a cold 6.12 kernel build and four boots (about 20 minutes
# cold) that CI's tier cannot afford on top of the 6.1 gate yet; run them
# with make test-full or TESTS=base-6.12 TIER=full tests/run.

load helpers

KV=6.12

setup_file() {
	R=$BATS_FILE_TMPDIR/repo
	export R
	copy_repo "$R"
	mkdir -p "$TEST_WORKDIR"
	REV=$(. "$R/series/$KV/series.conf" && echo "$SERIES_CURRENT")
	export REV
}

fault() {
	WORKDIR=$TEST_WORKDIR KVER=$KV "$R/boot/faults.sh" "$@"
}

# bats test_tags=full
@test "make tree series gate KVER=6.12: the 6.12 series passes, with the suites it adds" {
	timed run mk "$R" tree series gate KVER=$KV
	verdict_is "^gate $REV x86_64 lockdep: PASS \(([0-9]+) suites, ([0-9]+) tests\)$"
	[ "$status" -eq 0 ]
	for s in "kunit task_work" "guest close_release" "guest close_semantics_test"; do
		[[ "$output" =~ "  $s "[[:space:]]*[0-9]+" tests, "[[:space:]]*[0-9]+" passed,"[[:space:]]*"0 skipped" ]]
	done
	rec=$TEST_WORKDIR/gate/$KV/$REV-x86_64-lockdep.record
	grep -qx "head $(git -C "$TEST_WORKDIR/linux-$KV" rev-parse b4/safer-fput)" "$rec"
	grep -q $'^ *ok [0-9]* global\\.release_after_munmap\r*$' "${rec%.record}.console"
	# 6.12's kunit_fault case oopses on purpose: boot/bases/6.12 turns
	# it off, so the suite only reports it skipped and nothing oopses.
	[[ "$output" =~ "  kunit kunit_fault "[[:space:]]*"1 tests,"[[:space:]]*"0 passed,"[[:space:]]*"1 skipped" ]]
	! grep -q 'BUG: kernel NULL pointer dereference' "${rec%.record}.console"
}

# bats test_tags=full
@test "fault task_work-lifo on 6.12: the task_work suite catches LIFO order" {
	timed run fault lockdep task_work-lifo
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: task_work\.task_work_test_fifo_order( \(and [0-9]+ more\))?$"
	[ "$status" -ne 0 ]
}

# bats test_tags=full
@test "fault fput-async on 6.12: the close-semantics guest tests catch an asynchronous final fput" {
	timed run fault lockdep fput-async
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: close_(release|semantics_test)\."
	[ "$status" -ne 0 ]
}

# bats test_tags=full
@test "fault lockdep-fput-nodefer on 6.12: close(2)'s fput_nodefer() under mmap_lock fails the gate" {
	timed run fault lockdep lockdep-fput-nodefer
	verdict_is "^gate $REV x86_64 lockdep: FAIL: WARNING: CPU: [0-9]+ PID: [0-9]+ at ([^ ]*/)?fs/file_table\.c:[0-9]+ fput_nodefer"
	[ "$status" -ne 0 ]
}
