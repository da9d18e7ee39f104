#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# selection.bats - what a developer's boot runs and how a failure is redone:
# test selection (KUNIT: kunit.filter_glob, SELFTESTS: guest tests of
# boot/tests/ and boot/selftests), its refusal in a gate, and the command a
# FAIL verdict ends with. No kernel is built: the boots behind it are in
# gate.bats, the verdicts of a selected boot are on a recorded console.
# bats file_tags=quick

load helpers

FIX=$BATS_TEST_DIRNAME/fixtures/console

@test "a gate refuses a test selection in one line, before any prerequisite runs" {
	for sel in KUNIT=task_work SELFTESTS=close_release; do
		for t in gate gate-full; do
			run make -s -C "$TOP" "$t" "$sel" WORKDIR="$TEST_WORKDIR"
			[ "$status" -ne 0 ]
			[ "${#lines[@]}" -eq 1 ]
			[[ "$output" == *"a gate runs every test: KUNIT and SELFTESTS are for 'make boot' and 'make fault'"* ]]
		done
	done
	# boot.sh itself, called as make gate calls it.
	run env SELFTESTS=close_release WORKDIR="$TEST_WORKDIR" "$TOP/boot/boot.sh" --record lockdep
	[ "$status" -ne 0 ]
	[ "$output" = "boot: error: a gate runs every test: KUNIT= SELFTESTS=close_release are for 'make boot'" ]
}

@test "SELFTESTS: a name that is no guest test of the base is a one-line error naming them" {
	run make -s -C "$TOP" boot SELFTESTS=close_release,close_rnage_test WORKDIR="$TEST_WORKDIR"
	[ "$status" -ne 0 ]
	# The reason, then make's own line for the failed recipe.
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "boot: error: SELFTESTS: no guest test 'close_rnage_test' on 6.1 (have: close_release inotify_close_order close_range_test close_semantics_test)" ]
}

@test "boot/selftests: a base listed by name gets its selftest, another base does not" {
	list() { KVER=$1 WORKDIR=$TEST_WORKDIR bash -c ". '$TOP/boot/lib-boot.sh' && guest_tests | tr '\n' ' '"; }
	[ "$(list 6.1)" = "close_release inotify_close_order close_range_test close_semantics_test " ]
	cp -a "$TOP/boot" "$BATS_TEST_TMPDIR/"
	printf 'only_on_612\t6.12\tx.c\n' >>"$BATS_TEST_TMPDIR/boot/selftests"
	list() { KVER=$1 WORKDIR=$TEST_WORKDIR bash -c "TOP=$TOP; . '$TOP/scripts/lib.sh'; BOOT=$BATS_TEST_TMPDIR/boot; . '$BATS_TEST_TMPDIR/boot/lib-boot.sh'; BOOT=$BATS_TEST_TMPDIR/boot; guest_tests | tr '\n' ' '"; }
	[[ "$(list 6.12)" == *" only_on_612 " ]]
	[[ "$(list 6.1)" != *only_on_612* ]]
}

@test "reproduce: the make command names the repo, base, arch, revision, a non-default WORKDIR and the selection" {
	run env -u REV KVER=7.3 ARCH=arm64 WORKDIR='/tmp/w d' KUNIT='task_work*' \
		bash -c ". '$TOP/scripts/lib.sh' && reproduce fault CONFIG=lockdep FIXTURE=task_work-lifo"
	[ "$status" -eq 0 ]
	[ "$output" = "make -C $TOP fault KVER=7.3 ARCH=arm64 REV=v1 WORKDIR=/tmp/w\\ d CONFIG=lockdep FIXTURE=task_work-lifo KUNIT=task_work\\*" ]
	# The default WORKDIR is left out.
	run env -u REV -u KUNIT KVER=6.1 ARCH=x86_64 WORKDIR="$HOME/.cache/safer-fput" \
		bash -c ". '$TOP/scripts/lib.sh' && reproduce gate CONFIG=kasan"
	[ "$output" = "make -C $TOP gate KVER=6.1 ARCH=x86_64 REV=$CUR_REV CONFIG=kasan" ]
	# make reads it back: the words are the variables it takes.
	cmd=$(env -u REV KVER=6.1 ARCH=arm64 WORKDIR="$TEST_WORKDIR" KUNIT='task_work*' \
		bash -c ". '$TOP/scripts/lib.sh' && reproduce help")
	run bash -c "$cmd"
	[ "$status" -eq 0 ]
	[[ "$output" == *"safer-fput (KVER=6.1 REV=$CUR_REV ARCH=arm64 WORKDIR=$TEST_WORKDIR)"* ]]
}

@test "a b4 older than the scripts need, or none, is a one-line error; PATH is the user's" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho 0.11.2\n' >"$BATS_TEST_TMPDIR/bin/b4"
	chmod +x "$BATS_TEST_TMPDIR/bin/b4"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" WORKDIR="$TEST_WORKDIR" bash -c "PROG=series; . '$TOP/scripts/lib.sh' && require_b4"
	[ "$status" -ne 0 ]
	[ "$output" = "series: error: b4 0.11.2 at $BATS_TEST_TMPDIR/bin/b4 is older than 0.12, which the scripts need" ]
	printf '#!/bin/sh\necho 0.14.1\n' >"$BATS_TEST_TMPDIR/bin/b4"
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" WORKDIR="$TEST_WORKDIR" bash -c "PROG=series; . '$TOP/scripts/lib.sh' && require_b4 && command -v b4"
	[ "$status" -eq 0 ]
	[ "$output" = "$BATS_TEST_TMPDIR/bin/b4" ]
	run env PATH=/nonexistent WORKDIR="$TEST_WORKDIR" /bin/bash -c "PROG=series; . '$TOP/scripts/lib.sh' && require_b4"
	[ "$status" -ne 0 ]
	[[ "$output" == *"series: error: b4 not found (run 'make deps', or put b4 >= 0.12 in PATH)" ]]
}

@test "the boot scripts run directly, with no selection in the environment, select every test" {
	# As tests/gate.bats and bisect call boot/faults.sh and boot/boot.sh:
	# not through make, which exports KUNIT and SELFTESTS (empty).
	run env -u KUNIT -u SELFTESTS KVER=6.1 WORKDIR="$TEST_WORKDIR" bash -c \
		"set -euo pipefail; PROG=boot; . '$TOP/boot/lib-boot.sh'; check_selftests; guest_selected close_release; echo selected"
	[ "$status" -eq 0 ]
	[ "$output" = selected ]
}
