#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# checks.bats - each static check passes the series and catches its seeded fault.
#
# Fixture series (tests/fixtures/checks/*/) are made into commits on the
# base in the test workdir's tree and handed to the checks with CHECK_RANGE.

load helpers

setup_file() {
	R=$BATS_FILE_TMPDIR/repo
	export R
	copy_repo "$R"
	mk "$R" tree series >/dev/null 2>&1
	BASE=$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")
	export BASE
}

teardown_file() {
	drop_scratch "$TEST_WORKDIR/sparse"
}

# fixture NAME: the commits tests/fixtures/checks/NAME/*.patch make on the
# base, in the test workdir's tree, with no checkout; prints the head.
fixture() {
	commit_patches "$TEST_WORKDIR/linux-$DEF_KVER" "$BASE" \
		"$BATS_TEST_DIRNAME/fixtures/checks/$1"/*.patch
}

@test "checkpatch: the series is --strict clean" {
	run mk "$R" check-checkpatch
	[ "$status" -eq 0 ]
	[[ "$(verdict check)" == "check-checkpatch $CUR_REV: PASS ("* ]]
}

@test "checkpatch: catches style errors and an added file no MAINTAINERS covers" {
	head=$(fixture checkpatch)
	run mk "$R" check-checkpatch CHECK_RANGE="$BASE..$head"
	[ "$status" -ne 0 ]
	[[ "$output" == *"kernel/uncovered_fixture.c: added file without a MAINTAINERS"* ]]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: FAIL: 2 of 2 patches: 'fs: checkpatch fixture with style errors', 'kernel: add a file no MAINTAINERS entry covers'" ]
}

@test "checkpatch: a second run reuses each patch's result, a failure as a failure" {
	n=$(tgit rev-list --count "$BASE..b4/safer-fput")
	n=$((n - 1))
	run mk "$R" check-checkpatch
	[ "$status" -eq 0 ]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: PASS ($n patches, --strict clean, $n results reused)" ]
	# The revision's per-patch table, for the cover letter.
	[ "$(grep -c $'^[0-9]*\tpass\t' "$TEST_WORKDIR/results/$DEF_KVER/$CUR_REV/checkpatch.tsv")" -eq "$n" ]
	head=$(fixture checkpatch)
	run mk "$R" check-checkpatch CHECK_RANGE="$BASE..$head"
	[ "$status" -ne 0 ]
	[[ "$output" == *"kernel/uncovered_fixture.c: added file without a MAINTAINERS"* ]]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: FAIL: 2 of 2 patches: 'fs: checkpatch fixture with style errors', 'kernel: add a file no MAINTAINERS entry covers'" ]
	# Another MAINTAINERS.local is another key: checked again. (A key
	# no earlier run of this test has made: the workdir persists.)
	echo "# checks.bats $(date +%s%N)" >>"$R/MAINTAINERS.local"
	run mk "$R" check-checkpatch
	git -C "$R" checkout -q -- MAINTAINERS.local
	[ "$status" -eq 0 ]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: PASS ($n patches, --strict clean)" ]
}

@test "kernel-doc: no patch of the series adds a warning, the fixture's first does; results reused" {
	run mk "$R" check-kerneldoc
	[ "$status" -eq 0 ]
	n=$(tgit rev-list --count "$BASE..b4/safer-fput")
	n=$((n - 1))
	run mk "$R" check-kerneldoc
	[[ "$(verdict check)" == "check-kerneldoc $CUR_REV: PASS ($n patches, "*" files, no new kernel-doc warning, $n results reused)" ]]
	[ "$(grep -c $'^[0-9]*\tpass\t' "$TEST_WORKDIR/results/$DEF_KVER/$CUR_REV/kerneldoc.tsv")" -eq "$n" ]
	head=$(fixture kdoc-sparse)
	run mk "$R" check-kerneldoc CHECK_RANGE="$BASE..$head"
	[ "$status" -ne 0 ]
	[[ "$output" == *"file_table_kdoc_fixture"* ]]
	[ "$(verdict check)" = "check-kerneldoc $CUR_REV: FAIL: new kernel-doc warnings in 1 of 2 patches: 'fs: kernel-doc fixture with a missing parameter'" ]
	# A renamed file's old warnings are not new (it is compared with
	# what it was under its old name), and it has some.
	tgit show "$BASE:fs/nsfs.c" >"$BATS_TEST_TMPDIR/nsfs.c"
	[ "$(perl "$TEST_WORKDIR/linux-6.1/scripts/kernel-doc" -none "$BATS_TEST_TMPDIR/nsfs.c" 2>&1 | grep -c warning)" -gt 0 ]
	head=$(fixture kdoc-rename)
	run mk "$R" check-kerneldoc CHECK_RANGE="$BASE..$head"
	[ "$status" -eq 0 ]
	[[ "$(verdict check)" == "check-kerneldoc $CUR_REV: PASS (1 patches, 1 files, no new kernel-doc warning"* ]]
	# Every warning of a file a patch adds is new.
	head=$(fixture kdoc-add)
	run mk "$R" check-kerneldoc CHECK_RANGE="$BASE..$head"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"fs/kdoc_fixture.c: warning: Function parameter or member 'file' not described in 'kdoc_fixture_size'"* ]]
	[ "$(verdict check)" = "check-kerneldoc $CUR_REV: FAIL: new kernel-doc warnings in 1 of 1 patches: 'fs: add a file with a kernel-doc warning'" ]
}

@test "sparse: a __user dereference is a new warning" {
	head=$(fixture kdoc-sparse)
	run mk "$R" check-sparse CHECK_RANGE="$BASE..$head"
	[ "$status" -ne 0 ]
	[[ "$output" == *"fs/file_table.c: sparse: warning: dereference of noderef expression"* ]]
	[ "$(verdict check)" = "check-sparse $CUR_REV: FAIL: 1 new sparse warnings" ]
}

@test "per-commit build: a commit that only builds with the next one fails, so does one the config leaves out" {
	head=$(fixture build)
	run mk "$R" check-build CHECK_CONFIGS=lockdep CHECK_RANGE="$BASE..$head"
	[ "$status" -ne 0 ]
	[ "$(verdict check)" = "check-build $CUR_REV: FAIL: 'fs: call a hook defined only by the next commit' (x86_64 lockdep: does not build), 'ext4: change a file the gate's configs do not build' (x86_64 lockdep: not compiled: fs/ext4/file.c)" ]
	# A commit touching only arch/arm64 is not an x86_64 build's business
	# (it does not build: an x86_64 build of it would pass); the arm64
	# build (make gate ARCH=arm64, gate-full) checks it.
	[[ "$output" == *"build x86_64 lockdep [4/4] arm64: break a file only arm64 builds: skipped, touches no file x86_64 builds"* ]]
}

@test "per-commit build: a second run reuses a pass, never a failure" {
	head=$(fixture build)
	run mk "$R" check-build CHECK_CONFIGS=lockdep CHECK_RANGE="$BASE..$head"
	echo "$output"
	[ "$status" -ne 0 ]
	# 2/4 passed last time (the hook's definition completes 1/4): kept.
	[[ "$output" == *"build x86_64 lockdep [2/4] fs: define the hook: PASS reused ("* ]]
	# The two failures are built and fail again, for the same reasons.
	[[ "$output" == *"build x86_64 lockdep [1/4] fs: call a hook defined only by the next commit"$'\n'* ]]
	[ "$(verdict check)" = "check-build $CUR_REV: FAIL: 'fs: call a hook defined only by the next commit' (x86_64 lockdep: does not build), 'ext4: change a file the gate's configs do not build' (x86_64 lockdep: not compiled: fs/ext4/file.c)" ]
	# Another build script is another key: nothing is reused. (So is
	# a config fragment: see cell_key in checks/build.sh.)
	# (The first two commits are enough to see it: fewer builds.)
	echo "# another key: $(date +%s%N)" >>"$R/checks/build.sh"
	run mk "$R" check-build CHECK_CONFIGS=lockdep CHECK_RANGE="$BASE..$head~2"
	git -C "$R" checkout -q -- checks/build.sh
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"build x86_64 lockdep [2/2] fs: define the hook"$'\n'* ]]
	[[ "$output" != *"reused"* ]]
}

@test "per-commit build: a commit no arch of boot/arch builds fails, unchecked is not a pass" {
	head=$(fixture riscv)
	run mk "$R" check-build CHECK_CONFIGS=lockdep CHECK_RANGE="$BASE..$head"
	[ "$status" -ne 0 ]
	[ "$(verdict check)" = "check-build $CUR_REV: FAIL: 'riscv: touch a file no gate arch builds' (no arch of boot/arch builds it: arm64 x86_64)" ]
}
