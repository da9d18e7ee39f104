#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# verdict.bats - the gate's verdict rules on recorded console logs
# (tests/fixtures/console/, see its README), as kunit.py tests its parser
# on tools/testing/kunit/test_data/: boot/verdict.sh with its console scan,
# KTAP parse and expected suites, and no kernel built or booted (arch.bats
# tests the known-issues rules on the scan alone). Each log was recorded from a gate boot; the hang, the truncated
# and the KTAP-less logs are cut from the clean one here.
# bats file_tags=beside-builds,quick

load helpers

FIX=$BATS_TEST_DIRNAME/fixtures/console

# A gated tree, as far as verdict.sh reads one: the parser
# (tools/testing/kunit) and the files by which boot/expected-suites knows
# the series' suites are expected. The parser is 6.1's, from the package
# `make deps` installs, extracted once into the test workdir: 6.1's
# kunit_parser reads the 7.3 logs to the same counts as 7.3's own.
setup_file() {
	local kt=$TEST_WORKDIR/kunit-tools/6.1 tarball
	if [ ! -f "$kt/tools/testing/kunit/kunit.py" ]; then
		tarball=$(KVER=6.1 WORKDIR=$TEST_WORKDIR bash -c ". '$TOP/scripts/lib.sh' && source_tarball")
		rm -rf "$kt"
		mkdir -p "$kt"
		tar -xJf "$tarball" -C "$kt" --strip-components=1 \
			linux-source-6.1/tools/testing/kunit
	fi
	SRC=$BATS_FILE_TMPDIR/src
	mkdir -p "$SRC/tools/testing" "$SRC/kernel" "$SRC/fs/tests"
	ln -s "$kt/tools/testing/kunit" "$SRC/tools/testing/kunit"
	touch "$SRC/kernel/task_work_kunit.c" "$SRC/fs/tests/file_table_kunit.c"
	export SRC
}

# verdict KVER ARCH LOG [QEMU-RC [TIMEOUT]]: verdict.sh as boot.sh runs it
# for the lockdep cell (timeout 360 s), its stdout and stderr in $output.
verdict() {
	local out=$BATS_TEST_TMPDIR/out
	mkdir -p "$out"
	run env KVER="$1" ARCH="$2" WORKDIR="$TEST_WORKDIR" \
		"$TOP/boot/verdict.sh" "$SRC" lockdep "$3" "${4:-0}" "${5:-360}" "$out"
	printf '%s\n' "$output"
}

# fails_with REASON: the last verdict failed, for REASON (its last line).
fails_with() {
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "FAIL: $1" ]
}

@test "a clean 7.3 boot passes with its counts; the int_log warnings known for 7.3 are skipped and counted" {
	verdict 7.3 x86_64 "$FIX/x86_64-7.3-lockdep-pass.log"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "PASS (97 suites, 973 tests)" ]
	[[ "$output" == *"console-scan: skipped 2 report(s) boot/known-issues lists in math-int_log, first: WARNING: ../linux-7.3/lib/math/int_log.c:63 at intlog2+"* ]]
}

@test "a selected boot passes with what it selected, and says so; without the selection it misses suites" {
	KUNIT='task_work*' SELFTESTS=close_release verdict 7.3 x86_64 "$FIX/x86_64-7.3-lockdep-selected.log"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "PASS (2 suites, 17 tests, KUNIT=task_work*, SELFTESTS=close_release)" ]
	# The same log read as a full boot's: the suites it did not select are
	# missing (the series' file_table suite first, as boot/expected-suites
	# lists it after the guest tests).
	verdict 7.3 x86_64 "$FIX/x86_64-7.3-lockdep-selected.log"
	fails_with "expected suite(s) did not run: inotify_close_order close_range_test fput_close_sync"
	# A selection that does not cover what ran still expects what it names.
	KUNIT='fput_close_sync' verdict 7.3 x86_64 "$FIX/x86_64-7.3-lockdep-selected.log"
	fails_with "expected suite(s) did not run: inotify_close_order close_range_test fput_close_sync"
}

@test "QEMU still running at the timeout is a hang, whatever the log has so far" {
	sed '/^safer-fput: guest tests begin/q' "$FIX/x86_64-7.3-lockdep-pass.log" \
		>"$BATS_TEST_TMPDIR/hang.log"
	verdict 7.3 x86_64 "$BATS_TEST_TMPDIR/hang.log" 124
	fails_with "boot hang after 360 s"
}

@test "a log that ends before the guest tests names the suites that did not run" {
	sed '/^safer-fput: guest tests begin/,$d' "$FIX/x86_64-7.3-lockdep-pass.log" \
		>"$BATS_TEST_TMPDIR/cut.log"
	verdict 7.3 x86_64 "$BATS_TEST_TMPDIR/cut.log"
	fails_with "expected suite(s) did not run: close_release inotify_close_order close_range_test"
}

@test "a log cut inside a KUnit suite: the tests its plans announced are counted as never reported" {
	# Up to the first case of the nested miscdev suite: the top-level
	# plan ("1..94") and the suite's own announce tests that never report.
	# kunit.py stands in nameless tests for them, which are not a "not ok"
	# to name.
	n=$(grep -n -m1 '^        ok 1 ' "$FIX/x86_64-7.3-lockdep-pass.log" | cut -d: -f1)
	head -n "$n" "$FIX/x86_64-7.3-lockdep-pass.log" >"$BATS_TEST_TMPDIR/cut.log"
	verdict 7.3 x86_64 "$BATS_TEST_TMPDIR/cut.log"
	fails_with "KTAP ends early: 91 kunit planned test(s) never reported"
}

@test "a log with no KTAP at all is no pass: the expected suites are missing" {
	sed '/^KTAP version 1/,$d' "$FIX/x86_64-7.3-lockdep-pass.log" >"$BATS_TEST_TMPDIR/none.log"
	verdict 7.3 x86_64 "$BATS_TEST_TMPDIR/none.log"
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" =~ ^"FAIL: expected suite(s) did not run: close_release " ]]
}

@test "LIFO task_work on 7.3: the first failing case named, the other four counted and listed" {
	verdict 7.3 x86_64 "$FIX/x86_64-7.3-lockdep-task_work-lifo.log"
	fails_with "not ok: task_work.task_work_test_fifo_order (and 4 more)"
	# The three KUnit order cases and the two IN_CLOSE order cases, which
	# see the reversal from user space.
	run awk -F'\t' '$4 == "FAIL" { print $1, $2 "." $3 }' "$BATS_TEST_TMPDIR/out/results.tsv"
	[ "$output" = "kunit task_work.task_work_test_fifo_order
kunit task_work.task_work_test_many
kunit task_work.task_work_test_run_at_exit
guest inotify_close_order.watched.exit_closes_in_fd_order
guest inotify_close_order.watched.close_range_closes_in_fd_order" ]
}

# The gate's own machinery, on the recorded boots of its seeded faults
# (tests/gate.bats boots them again in the full tier).

@test "6.1, a failing KUnit case: the case is named" {
	verdict 6.1 x86_64 "$FIX/x86_64-6.1-lockdep-kunit-fail.log"
	fails_with "not ok: example.example_simple_test"
}

@test "6.1, a panic at boot: the panic line is the reason" {
	verdict 6.1 x86_64 "$FIX/x86_64-6.1-lockdep-panic.log"
	fails_with "Kernel panic - not syncing: safer-fput seeded fault: panic at boot"
}

@test "6.1, an initcall that never returns: a hang at the timeout the boot had" {
	verdict 6.1 x86_64 "$FIX/x86_64-6.1-lockdep-hang.log" 124 30
	fails_with "boot hang after 30 s"
}

@test "6.1, a lockdep report: its first line is the reason, before any test result" {
	verdict 6.1 x86_64 "$FIX/x86_64-6.1-lockdep-lockdep-abba.log"
	fails_with "WARNING: possible circular locking dependency detected"
	# A report outranks a hang: the same log, QEMU killed at the timeout.
	verdict 6.1 x86_64 "$FIX/x86_64-6.1-lockdep-lockdep-abba.log" 124
	[ "${lines[-1]}" = "FAIL: WARNING: possible circular locking dependency detected" ]
}
