#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# base-6.12.bats - the second base: the 6.12 series' head boots clean, and
# the seeded faults that concern the series (LIFO task_work, an asynchronous
# final fput, fput_nodefer() under a lock) fail its gate there too (the 6.12
# forms of tests/fixtures/faults/6.12/ where the code differs, the common
# ones where it does not).
#
# All of it is the full tier (make test-full, or TESTS=base-6.12 TIER=full
# tests/run): a cold 6.12 build is some 20 minutes on CI's two cores, and
# CI's hour goes to the upstream-facing 7.3 series (base-7.3.bats) and to
# the gate's own machinery on 6.1 (gate.bats), which also runs the fault
# only the backports have (fput_nodefer() under a lock) in CI. What the
# gate adds on top of a boot (per-commit builds, the record) is the same
# code on every base; `make tree series gate KVER=6.12` on a fresh
# workdir, per-commit builds included (a second near-full build: patch 3
# changes include/linux/file.h), is here too.

load helpers

KV=6.12

setup_file() {
	base_copy $KV
	mk "$R" tree series KVER=$KV >"$BATS_FILE_TMPDIR/series.log" 2>&1
}

# suites_pass: the suites the 6.12 series adds ran, none skipped, and
# 6.12's kunit_fault case, which oopses on purpose, was turned off by
# boot/bases/6.12 (the suite reports it skipped, nothing oopses).
suites_pass() {
	local console=$1 s
	for s in "kunit task_work" "guest close_release" "guest close_semantics_test"; do
		[[ "$output" =~ "  $s "[[:space:]]*[0-9]+" tests, "[[:space:]]*[0-9]+" passed,"[[:space:]]*"0 skipped" ]]
	done
	grep -q $'^ *ok [0-9]* global\\.release_after_munmap\r*$' "$console"
	[[ "$output" =~ "  kunit kunit_fault "[[:space:]]*"1 tests,"[[:space:]]*"0 passed,"[[:space:]]*"1 skipped" ]]
	! grep -q 'BUG: kernel NULL pointer dereference' "$console"
}

fault() {
	WORKDIR=$TEST_WORKDIR KVER=$KV "$R/boot/faults.sh" "$@"
}

# bats test_tags=full
@test "the 6.12 series' head boots clean, with the suites it adds" {
	timed run fault lockdep
	verdict_is "^gate $REV x86_64 lockdep: PASS \(([0-9]+) suites, ([0-9]+) tests, (tcg|kvm)\)$"
	[ "$status" -eq 0 ]
	suites_pass "$TEST_WORKDIR/check/build-$KV-x86_64-lockdep/boot/console.log"
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

# bats test_tags=full
@test "make tree series gate KVER=6.12 on a fresh workdir: per-commit builds, the record, the suites" {
	rm -rf "$TEST_WORKDIR/gate/$KV" "$TEST_WORKDIR/results/$KV" "$TEST_WORKDIR/check/build-$KV-x86_64-lockdep"
	timed run mk "$R" tree series gate KVER=$KV
	verdict_is "^gate $REV x86_64 lockdep: PASS \(([0-9]+) suites, ([0-9]+) tests, (tcg|kvm)\)$"
	[ "$status" -eq 0 ]
	rec=$TEST_WORKDIR/gate/$KV/$REV-x86_64-lockdep.record
	grep -qx "head $(git -C "$TEST_WORKDIR/linux-$KV" rev-parse b4/safer-fput)" "$rec"
	n=$(git -C "$TEST_WORKDIR/linux-$KV" rev-list --count "$(. "$R/series/$KV/series.conf" && echo "$SERIES_BASE_TAG")..b4/safer-fput")
	[ "$(grep -c $'^patch build-x86_64-lockdep\t[0-9]*\tpass\t' "$rec")" -eq $((n - 1)) ]
	suites_pass "${rec%.record}.console"
}
