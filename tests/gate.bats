#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# gate.bats - the boot gate (boot/): the clean revision passes and is
# recorded, the record goes stale when the branch moves, and every seeded
# fault of tests/fixtures/faults/ fails the real gate with its own reason.
#
# Runs in a copy of this repo against $TEST_WORKDIR (its own tree, builds,
# records); faults are applied in the gate's worktree (boot/faults.sh), one
# after another, so their rebuilds are incremental from the gate's build.

load helpers

setup_file() {
	series_copy
	REV=$(. "$R/$SER/series.conf" && echo "$SERIES_CURRENT")
	export REV
}

teardown_file() {
	drop_scratch "$TEST_WORKDIR/compile"
}

teardown() {
	restore_branch
}

# fault CONFIG [FIXTURE]: the gate on the branch head with FIXTURE applied
# (ARCH from the environment, default x86_64).
fault() {
	WORKDIR=$TEST_WORKDIR "$R/boot/faults.sh" "$@"
}

@test "make boot: a wrong CONFIG is a one-line error naming the configs" {
	run mk "$R" boot CONFIG=lockdepp
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"unknown CONFIG 'lockdepp' (configs: base lockdep kasan)"* ]]
}

@test "gate-check: no record, no send" {
	rm -rf "$TEST_WORKDIR/gate"
	run mk "$R" gate-check
	[ "$status" -ne 0 ]
	[[ "$output" == *"$REV x86_64 lockdep: no gate record"* ]]
}

@test "make gate (nothing reused): the clean revision passes, record names its commits" {
	# Cold: no pass of an earlier run is reused (the build dirs may be
	# warm: checks.bats built fixtures there).
	rm -rf "$TEST_WORKDIR/results"
	timed run mk "$R" gate
	verdict_is "^gate $REV x86_64 lockdep: PASS \(([0-9]+) suites, ([0-9]+) tests, (tcg|kvm)\)$"
	[ "$status" -eq 0 ]
	rec=$TEST_WORKDIR/gate/$DEF_KVER/$REV-x86_64-lockdep.record
	grep -qx "arch x86_64" "$rec"
	grep -qx "head $(tgit rev-parse b4/safer-fput)" "$rec"
	n=$(tgit rev-list --count "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")..b4/safer-fput")
	[ "$(grep -c '^commit ' "$rec")" -eq "$n" ]
	# And each patch's results of the checks (after the b4 cover commit).
	[ "$(grep -c $'^patch checkpatch\t[0-9]*\tpass\t' "$rec")" -eq $((n - 1)) ]
	[ "$(grep -c $'^patch build-x86_64-lockdep\t[0-9]*\tpass\t' "$rec")" -eq $((n - 1)) ]
	# Every stage reported its progress.
	for s in build: initramfs: boot: tests:; do
		[[ "$output" == *"] $s"* ]]
	done
	# The gate booted the per-commit check's build of the head, and
	# neither sparse nor the boot ran make over it again.
	[[ "$output" == *"build: lockdep kernel in $TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep"* ]]
	[ "$(grep -c "kbuild: $TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep is built from $(tgit rev-parse --short=12 b4/safer-fput) already: reused" <<<"$output")" -eq 2 ]
	# The series' own options (boot/configs/series.config) were requested:
	# the test_fput cases ran instead of skipping for want of the device.
	if tgit grep -q '^config TEST_FPUT$' b4/safer-fput -- lib/Kconfig.debug; then
		grep -q '^CONFIG_TEST_FPUT=y$' "$TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep/.config"
		grep -q $'^ *ok [0-9]* global\\.release_after_munmap\r*$' "${rec%.record}.console"
	fi
}

@test "kconfig: .config is kept while its inputs hold; a new fragment line or a dirty Kconfig configures again" {
	wt=$TEST_WORKDIR/linux-$DEF_KVER
	b=$BATS_TEST_TMPDIR/kb
	kc() {
		env KVER="$DEF_KVER" ARCH=x86_64 WORKDIR="$TEST_WORKDIR" "$R/boot/kconfig.sh" "$wt" "$b" lockdep
	}
	kc
	! grep -q '^CONFIG_PRINTK_TIME=y$' "$b/.config"
	# Kept: not written again.
	touch -d 2000-01-01 "$b/.config"
	kc
	[ "$(stat -c %Y "$b/.config")" = "$(date -d 2000-01-01 +%s)" ]
	# A fragment that asks for more.
	echo CONFIG_PRINTK_TIME=y >>"$R/boot/configs/lockdep.config"
	kc
	git -C "$R" checkout -q -- boot/configs/lockdep.config
	grep -q '^CONFIG_PRINTK_TIME=y$' "$b/.config"
	kc
	! grep -q '^CONFIG_PRINTK_TIME=y$' "$b/.config"
	# A .config edited by hand in the build dir is not kept.
	echo CONFIG_PRINTK_TIME=y >>"$b/.config"
	kc
	! grep -q '^CONFIG_PRINTK_TIME=y$' "$b/.config"
	# An uncommitted change to a .c file (a conversion make cocci
	# compiles): kept.
	kc
	touch -d 2000-01-01 "$b/.config"
	echo '/* dirty */' >>"$wt/fs/file.c"
	kc
	git -C "$wt" checkout -q -- fs/file.c
	[ "$(stat -c %Y "$b/.config")" = "$(date -d 2000-01-01 +%s)" ]
	# A dirty Kconfig: configured every time.
	echo '# dirty' >>"$wt/init/Kconfig"
	kc
	git -C "$wt" checkout -q -- init/Kconfig
	[ "$(stat -c %Y "$b/.config")" != "$(date -d 2000-01-01 +%s)" ]
}

@test "coccinelle/compile.sh: compiles a tree's changed files alone; the compiler's first error, or the config, is the reason" {
	tree=$TEST_WORKDIR/linux-$DEF_KVER
	wt=$TEST_WORKDIR/compile/linux-$DEF_KVER
	# A worktree of a tree foundation.bats extracted afresh since is stale.
	if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$wt" HEAD
	fi
	git -C "$wt" checkout -q -f --detach "$(git -C "$tree" rev-parse HEAD)"
	cc() {
		env KVER="$DEF_KVER" ARCH=x86_64 WORKDIR="$TEST_WORKDIR" "$R/coccinelle/compile.sh" "$wt" "$@"
	}
	run cc fs/file.c fs/open.c
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "compile: PASS (2 files of $wt, x86_64 lockdep)" ]
	# A conversion that does not compile: the compiler's first error, the
	# file left as it was.
	printf 'int safer_fput_broken(void)\n{\n\treturn no_such_name;\n}\n' >>"$wt/fs/open.c"
	cp "$wt/fs/open.c" "$BATS_TEST_TMPDIR/open.c"
	run cc fs/file.c fs/open.c
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "${lines[-1]}" == "compile: error: fs/open.c does not compile: "*"fs/open.c:"*": error: "*"no_such_name"*" undeclared"* ]]
	cmp "$wt/fs/open.c" "$BATS_TEST_TMPDIR/open.c"
	# The same file broken in HEAD too: the config is blamed, not the change.
	git -C "$wt" -c user.name=t -c user.email=t@example.org commit -q -am broken
	echo '/* converted */' >>"$wt/fs/open.c"
	run cc fs/open.c
	echo "$output"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "compile: error: fs/open.c does not compile as HEAD has it either, with the lockdep config of x86_64: enable it in boot/configs/series.config" ]
	grep -qx '/\* converted \*/' "$wt/fs/open.c"
	git -C "$wt" checkout -q -f --detach "$(git -C "$tree" rev-parse HEAD)"
	# What cannot be compiled alone is refused.
	run cc include/linux/file.h
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "compile: error: include/linux/file.h is not a .c file: a conversion there cannot be compiled alone (refused)" ]
	run cc arch/arm64/kernel/sys.c
	[ "$status" -ne 0 ]
	[[ "${lines[-1]}" == "compile: error: arch/arm64/kernel/sys.c is not built on x86_64"* ]]
}

@test "gate-check: valid for the gated head, stale once the branch or boot/ moves" {
	run mk "$R" gate-check GATE_CELLS=x86_64/lockdep
	[ "$status" -eq 0 ]
	# The matrix wants more cells than this one.
	run mk "$R" gate-check
	[ "$status" -ne 0 ]
	[[ "$output" == *"$REV x86_64 kasan: no gate record"* ]]
	# A change to what the gate boots with (a config fragment) makes the
	# record stale too; one to another config's fragment does not.
	echo "# CONFIG_TEST_STALE is not set" >>"$R/boot/configs/lockdep.config"
	run mk "$R" gate-check GATE_CELLS=x86_64/lockdep
	git -C "$R" checkout -q -- boot/configs/lockdep.config
	[ "$status" -ne 0 ]
	[[ "$output" == *"$REV x86_64 lockdep: stale gate record: boot/ (configs, expected suites, guest tests, scripts) changed since"* ]]
	echo "# CONFIG_TEST_STALE is not set" >>"$R/boot/configs/kasan.config"
	run mk "$R" gate-check GATE_CELLS=x86_64/lockdep
	git -C "$R" checkout -q -- boot/configs/kasan.config
	[ "$status" -eq 0 ]
	save_branch
	tgit checkout -q b4/safer-fput
	tgit -c user.name=t -c user.email=t@localhost commit -q --allow-empty -m "test: move the branch"
	run mk "$R" gate-check GATE_CELLS=x86_64/lockdep
	[ "$status" -ne 0 ]
	[[ "$output" == *"stale gate record"* ]]
}

@test "make gate (warm): a build not known to be of the head rebuilds, with progress, and passes again" {
	# A touched file in a build dir without the stamp of the head it was
	# built from: make runs, compiles the file and relinks.
	touch "$TEST_WORKDIR/check/linux-6.1/fs/file_table.c"
	rm -f "$TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep/.safer-fput-built"
	KBUILD_PROGRESS=5 timed run mk "$R" gate
	verdict_is "^gate $REV x86_64 lockdep: PASS "
	# The rebuild and relink say how far they are, every 5 s here.
	[[ "$output" =~ "] kbuild: "[0-9]+" objects compiled in 5 s (" ]]
	# The commits did not change: their per-commit build passes are reused.
	n=$(tgit rev-list --count "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")..b4/safer-fput")
	[[ "$output" == *"check-build $REV: PASS ($((n - 1)) commits x x86_64 x lockdep: 0 builds, $((n - 1)) passes reused,"* ]]
	[[ "$output" == *"check-sparse $REV: PASS ("*", reused)"* ]]
}

@test "make gate boots the committed head, not what \$TREE has checked out" {
	save_branch
	# $TREE elsewhere, with an edit that does not build: neither is the
	# revision (make gate's own make series would refuse the dirty tree,
	# so boot.sh --record is run as make gate runs it).
	tgit checkout -q --detach "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")"
	echo '#error not the committed head' >>"$TEST_WORKDIR/linux-6.1/fs/file_table.c"
	timed run env WORKDIR="$TEST_WORKDIR" "$R/boot/boot.sh" --record lockdep
	tgit checkout -q -f b4/safer-fput
	verdict_is "^gate $REV x86_64 lockdep: PASS "
	[ "$status" -eq 0 ]
	grep -qx "head $(tgit rev-parse b4/safer-fput)" "$TEST_WORKDIR/gate/$DEF_KVER/$REV-x86_64-lockdep.record"
}

# The gate's own machinery on the four kinds of failure (a failing case, a
# panic, a hang, a kernel report): each verdict is tested in CI on a
# recording of this very boot (tests/verdict.bats, fixtures/console/);
# booting them again is the full tier's.
# bats test_tags=full
@test "fault kunit-fail: a failing KUnit case fails the gate" {
	timed run fault lockdep kunit-fail
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: example\.example_simple_test$"
	[ "$status" -ne 0 ]
}

# In the full tier, as on 7.3 (base-7.3.bats): lava-run x86_64 below shows
# LIFO failing 6.1's gate in CI, and verdict.bats the verdict on 7.3's
# recorded LIFO boot.
# bats test_tags=full
@test "fault task_work-lifo: the task_work suite catches LIFO order" {
	timed run fault lockdep task_work-lifo
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: task_work\.task_work_test_fifo_order( \(and [0-9]+ more\))?$"
	[ "$status" -ne 0 ]
	# The reason, for the same fault on arm64: the first failing case
	# (the other order cases, fifo_many and run_at_exit, fail too, which
	# only changes the "(and N more)").
	reason=${lines[-1]#*: FAIL: }
	reason=${reason%%; reproduce: *}
	printf '%s\n' "${reason% (and * more)}" >"$BATS_FILE_TMPDIR/lifo.reason"
}

# bats test_tags=full
@test "fault panic: a panic at boot fails the gate" {
	timed run fault lockdep panic
	verdict_is "^gate $REV x86_64 lockdep: FAIL: Kernel panic - not syncing: safer-fput seeded fault: panic at boot$"
	[ "$status" -ne 0 ]
}

# bats test_tags=full
@test "fault hang: a boot that never reaches init is a hang" {
	# The seeded initcall hangs before init: no need to wait out the
	# lockdep boot's full 360 s to see it.
	BOOT_TIMEOUT=30 timed run fault lockdep hang
	verdict_is "^gate $REV x86_64 lockdep: FAIL: boot hang after 30 s$"
	[ "$status" -ne 0 ]
}

# bats test_tags=full
@test "fault lockdep-abba: a lockdep report fails the gate" {
	timed run fault lockdep lockdep-abba
	verdict_is "^gate $REV x86_64 lockdep: FAIL: WARNING: possible circular locking dependency detected$"
	[ "$status" -ne 0 ]
}

@test "fault task_work-batch: the task_work suite catches a reversal that breaks at its batch boundary" {
	timed run fault lockdep task_work-batch
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: task_work\.task_work_test_fifo_many( \(and [0-9]+ more\))?$"
	[ "$status" -ne 0 ]
}

# fput_nodefer() is the backports' (6.1, 6.12); 7.3 has mainline's
# fput_close_sync() instead (base-7.3.bats seeds its fault).
@test "fault lockdep-fput-nodefer: close(2)'s fput_nodefer() under mmap_lock fails the gate" {
	timed run fault lockdep lockdep-fput-nodefer
	verdict_is "^gate $REV x86_64 lockdep: FAIL: WARNING: CPU: [0-9]+ PID: [0-9]+ at ([^ ]*/)?fs/file_table\.c:[0-9]+ fput_nodefer"
	[ "$status" -ne 0 ]
}

@test "fault fput-nodefer-kthread: fput_nodefer() from a kernel thread fails the gate" {
	timed run fault lockdep fput-nodefer-kthread
	verdict_is "^gate $REV x86_64 lockdep: FAIL: WARNING: CPU: [0-9]+ PID: [0-9]+ at ([^ ]*/)?fs/file_table\.c:[0-9]+ fput_nodefer"
	[ "$status" -ne 0 ]
}

@test "fault close-no-flush: the close-semantics tests catch a close(2) that skips the flush" {
	timed run fault lockdep close-no-flush
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: close_semantics_test\.tmpfs\.posix_locks_removed_by_close$"
	[ "$status" -ne 0 ]
	printf '%s\n' "${lines[-1]}" >"$BATS_FILE_TMPDIR/close-no-flush.verdict"
}

@test "a FAIL's reproduce command, run from a fresh shell, gives the same verdict" {
	v=$(cat "$BATS_FILE_TMPDIR/close-no-flush.verdict")
	cmd=${v##*; reproduce: }
	[[ "$cmd" =~ ^"make -C $R fault KVER=$DEF_KVER ARCH=x86_64 REV=$REV WORKDIR=$TEST_WORKDIR CONFIG=lockdep FIXTURE=close-no-flush ACCEL="(tcg|kvm)$ ]]
	# No variable of this test's environment: only what the line says.
	timed run env -i HOME="$HOME" PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -c "$cmd"
	[ "$status" -ne 0 ]
	[ "$(printf '%s\n' "$output" | grep '^gate ' | tail -n 1)" = "$v" ]
}

@test "make fault KUNIT= SELFTESTS=: only the selected suites and guest tests run, and the verdict says so" {
	timed run mk "$R" fault KUNIT='task_work*' SELFTESTS=close_release
	verdict_is "^gate $REV x86_64 lockdep: PASS \(2 suites, [0-9]+ tests, KUNIT=task_work\*, SELFTESTS=close_release, (tcg|kvm)\)$"
	[ "$status" -eq 0 ]
	run cut -f1,2 "$TEST_WORKDIR/check/build-$DEF_KVER-x86_64-lockdep/boot/results.tsv"
	[ "$(printf '%s\n' "$output" | sed 's/\..*//' | sort -u | tr '\n' ' ')" = "guest	close_release kunit	task_work " ]
}

@test "fault fput-sync-munmap: a final put released under munmap()'s mmap_lock fails the gate" {
	timed run fault lockdep fput-sync-munmap
	verdict_is "^gate $REV x86_64 lockdep: FAIL: WARNING: possible circular locking dependency detected$"
	[ "$status" -ne 0 ]
}

# In the full tier, with the same fault on 6.12 and 7.3: close-no-flush
# above is CI's test of the close-semantics guest tests.
# bats test_tags=full
@test "fault fput-async: the close-semantics guest tests catch an asynchronous final fput" {
	timed run fault lockdep fput-async
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: close_(release|semantics_test)\."
	[ "$status" -ne 0 ]
}

# lava-run exits 0 and calls the job complete whatever the test cases say:
# lava/run.sh compares LAVA's per-case results with the gate's own.
# lava_run ARCH [clean]: task_work-lifo through LAVA on ARCH (LAVA and the
# gate agree on its passes and its failures), and first the clean gate.
lava_run() {
	if [ -n "${2:-}" ]; then
		timed run mk "$R" lava-run ARCH="$1"
		echo "$output" | tail -n 5
		[ "$status" -eq 0 ]
		[[ "$(verdict lava-run)" =~ ^"lava-run $REV $1 lockdep clean: PASS (LAVA = gate: "[0-9]+" cases, "[0-9]+" pass, 0 fail; gate: PASS (" ]]
	fi
	timed run mk "$R" lava-run ARCH="$1" FAULT=task_work-lifo
	echo "$output" | tail -n 5
	[ "$status" -eq 0 ]
	[[ "$(verdict lava-run)" =~ ^"lava-run $REV $1 lockdep task_work-lifo: PASS (LAVA = gate: "[0-9]+" cases, "[0-9]+" pass, "5" fail; gate: FAIL: not ok: task_work.task_work_test_fifo_order (and 4 more))"$ ]]
	# Three task_work cases, and the two IN_CLOSE order cases of the
	# inotify_close_order guest test, which see the reversal from user space.
	local results="$TEST_WORKDIR/lava/$DEF_KVER/run-$1-lockdep-task_work-lifo/lava.results"
	grep -qx 'kunit task_work_test_fifo_order fail' "$results"
	grep -qx 'guest watched_exit_closes_in_fd_order fail' "$results"
	grep -qx 'guest watched_close_range_closes_in_fd_order fail' "$results"
}

@test "lava-run x86_64: LAVA's results equal the gate's with task_work-lifo" {
	lava_run x86_64
}

# The cells beyond x86_64 lockdep: each is a cold kernel build of its own
# (a cross build for arm64), too long for CI's budget together with the
# rest. `make test-full` runs them; `make test` (CI) does not.

# bats test_tags=full
@test "make gate ARCH=arm64 (nothing reused): the clean revision passes, suites and counts shown" {
	rm -rf "$TEST_WORKDIR/results"
	timed run mk "$R" gate ARCH=arm64
	verdict_is "^gate $REV arm64 lockdep: PASS \(([0-9]+) suites, ([0-9]+) tests, (tcg|kvm)\)$"
	[ "$status" -eq 0 ]
	rec=$TEST_WORKDIR/gate/$DEF_KVER/$REV-arm64-lockdep.record
	grep -qx "arch arm64" "$rec"
	grep -qx "head $(tgit rev-parse b4/safer-fput)" "$rec"
	# The same suites and guest tests as on x86_64, with their counts.
	for s in "kunit task_work" "kunit file_table" "guest close_release" "guest close_semantics_test"; do
		[[ "$output" =~ "  $s "[[:space:]]*[0-9]+" tests, "[[:space:]]*[0-9]+" passed" ]]
	done
	# It booted an arm64 kernel on the virt board.
	grep -q 'Machine model: linux,dummy-virt' "${rec%.record}.console"
	# The x86_64 record is another cell's and is still there.
	[ -f "$TEST_WORKDIR/gate/$DEF_KVER/$REV-x86_64-lockdep.record" ]
}

# bats test_tags=full
@test "fault task_work-lifo on arm64: fails with the same reason as on x86_64" {
	ARCH=arm64 timed run fault lockdep task_work-lifo
	verdict_is "^gate $REV arm64 lockdep: FAIL: "
	[ "$status" -ne 0 ]
	reason=${lines[-1]#*: FAIL: }
	reason=${reason%%; reproduce: *}
	[ "${reason% (and * more)}" = "$(cat "$BATS_FILE_TMPDIR/lifo.reason")" ]
}

# bats test_tags=full
@test "lava-run arm64: LAVA's results equal the gate's, clean and with task_work-lifo" {
	lava_run arm64 clean
}

# bats test_tags=full
@test "kasan: the clean revision passes the KASAN boot" {
	timed run fault kasan
	verdict_is "^gate $REV x86_64 kasan: PASS "
	[ "$status" -eq 0 ]
}

# bats test_tags=full
@test "fault kasan-uaf: a use-after-free fails the KASAN gate" {
	timed run fault kasan kasan-uaf
	verdict_is "^gate $REV x86_64 kasan: FAIL: BUG: KASAN: use-after-free in example_simple_test"
	[ "$status" -ne 0 ]
}
