#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# base-7.3.bats - the default base, Debian's linux-source-7.3 from
# trixie-backports: the series in the form upstream would review.
#
# CI's tier, no kernel built: with no KVER, on a fresh test workdir, 7.3 is
# fetched through a private apt list, imported, its branch made and the
# static checks run (checkpatch as a maintainer runs it, kernel-doc); and a
# sparse the tree refuses is a FAIL before anything is built. The full
# tier (make test-full) gates it the same way, sid's sparse, per-commit
# builds and the boot included (a cold 7.3 build is some 20 minutes on
# two cores, more than CI's hour has beside 6.1's), then the seeded
# faults that concern what the 7.3 series itself adds, each on the gated
# head: LIFO task_work (the KUnit order cases and the inotify order at
# exit), fput_close_sync() without its lockdep check (the KUnit test under
# a mutex), an asynchronous final fput (close_release: mainline's
# close(2), which the series leaves alone), the aborted KUnit case under
# KASAN and the other cells of the matrix (make gate-full).

load helpers

KV=7.3

setup_file() {
	base_copy $KV
}

# No later file reads 7.3's tree, its gate worktree or its builds.
teardown_file() {
	drop_scratch "$TEST_WORKDIR/linux-$KV" "$TEST_WORKDIR/check/linux-$KV" \
		"$TEST_WORKDIR"/check/build-$KV-* "$TEST_WORKDIR"/check/sparse-$KV-*
}

# make in the repo copy with no KVER, on the command line or in the
# environment: the default base.
mk_default() {
	env -u KVER make -s -C "$R" WORKDIR="$TEST_WORKDIR" "$@"
}

fault() {
	WORKDIR=$TEST_WORKDIR KVER=$KV "$R/boot/faults.sh" "$@"
}

# suites_pass CONSOLE: the suites the 7.3 series adds ran, none skipped.
suites_pass() {
	local s
	for s in "kunit task_work" "kunit fput_close_sync" "guest inotify_close_order" "guest close_release"; do
		[[ "$output" =~ "  $s "[[:space:]]*[0-9]+" tests, "[[:space:]]*[0-9]+" passed,"[[:space:]]*"0 skipped" ]]
	done
	grep -q $'^ *ok [0-9]* fput_close_sync_test_warns_under_lock\r*$' "$1"
}

@test "series/series.conf makes 7.3 the default base" {
	run env -u KVER make -s -C "$R" help
	[[ "${lines[0]}" == "safer-fput (KVER=$KV REV=$REV "* ]]
}

@test "make tree series with no KVER on a fresh workdir: 7.3 fetched, imported, checkpatch and kernel-doc clean" {
	# CI's test workdir is fresh: the package is fetched, verified and
	# unpacked by `make tree` (a developer's rerun reuses the tree).
	rm -rf "$TEST_WORKDIR/results/$KV"
	timed run mk_default tree series check-checkpatch check-kerneldoc
	echo "$output" | tail -n 15
	[ "$status" -eq 0 ]
	n=$(git -C "$TEST_WORKDIR/linux-$KV" rev-list --count "$(. "$R/series/$KV/series.conf" && echo "$SERIES_BASE_TAG")..b4/safer-fput")
	# The cover commit and the revision's patches.
	p=("$R/series/$KV/$REV"/*.patch)
	[ "$n" -eq $((${#p[@]} + 1)) ]
	[[ "$output" == *"check-checkpatch $REV: PASS ("* ]]
	[[ "$output" == *"check-kerneldoc $REV: PASS ("* ]]
}

@test "check-sparse on 7.3 with bookworm's sparse 0.6.4: a FAIL that names the refusal, before any build" {
	rm -rf "$TEST_WORKDIR/results/$KV/$REV/sparse"
	timed run mk "$R" check-sparse KVER=$KV SPARSE=/usr/bin/sparse
	echo "$output"
	[ "$status" -ne 0 ]
	# make adds its own "make: *** ... Error" line after the verdict.
	[[ "$(verdict "check-sparse $REV: ")" =~ ^"check-sparse $REV: FAIL: the tree refuses /usr/bin/sparse (0.6.4".*"): its scripts/checker-valid.sh fails, kbuild would turn C=2 off"$ ]]
	[[ "$output" != *"sparse at head: build"* ]]
}

# bats test_tags=full
@test "make tree series gate with no KVER gates 7.3 on a fresh workdir: fetch, import, checks, boot" {
	rm -rf "$TEST_WORKDIR/gate/$KV" "$TEST_WORKDIR/results/$KV" "$TEST_WORKDIR/check/build-$KV-x86_64-lockdep"
	timed run mk_default tree series gate
	verdict_is "^gate $REV x86_64 lockdep: PASS \(([0-9]+) suites, ([0-9]+) tests, (tcg|kvm)\)$"
	[ "$status" -eq 0 ]
	[[ "$output" == *"check-sparse $REV: PASS ("* ]]
	rec=$TEST_WORKDIR/gate/$KV/$REV-x86_64-lockdep.record
	grep -qx "head $(git -C "$TEST_WORKDIR/linux-$KV" rev-parse b4/safer-fput)" "$rec"
	n=$(git -C "$TEST_WORKDIR/linux-$KV" rev-list --count "$(. "$R/series/$KV/series.conf" && echo "$SERIES_BASE_TAG")..b4/safer-fput")
	[ "$(grep -c $'^patch build-x86_64-lockdep\t[0-9]*\tpass\t' "$rec")" -eq $((n - 1)) ]
	suites_pass "${rec%.record}.console"
}

# bats test_tags=full
@test "fault task_work-lifo on 7.3: the KUnit order cases and the inotify order at exit catch LIFO" {
	timed run fault lockdep task_work-lifo
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: task_work\.task_work_test_fifo_order \(and [0-9]+ more\)$"
	[ "$status" -ne 0 ]
	console=$TEST_WORKDIR/check/build-$KV-x86_64-lockdep/boot/console.log
	grep -q 'not ok [0-9]* watched.exit_closes_in_fd_order' "$console"
	grep -q 'IN_CLOSE_NOWRITE order: 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0 (expected ascending)' "$console"
}

# bats test_tags=full
@test "fault fput-close-sync-unchecked on 7.3: the KUnit test fails without fput_close_sync()'s lockdep check" {
	timed run fault lockdep fput-close-sync-unchecked
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: fput_close_sync\.fput_close_sync_test_warns_under_lock$"
	[ "$status" -ne 0 ]
}

# bats test_tags=full
@test "fault fput-async on 7.3: the close_release guest tests catch an asynchronous final fput" {
	timed run fault lockdep fput-async
	verdict_is "^gate $REV x86_64 lockdep: FAIL: not ok: close_release\."
	[ "$status" -ne 0 ]
}

# bats test_tags=full
@test "fault task_work-abort on 7.3 KASAN: a case aborted with 2500 works queued fails, and nothing is used after free" {
	timed run fault kasan task_work-abort
	verdict_is "^gate $REV x86_64 kasan: FAIL: not ok: task_work\.task_work_test_many$"
	[ "$status" -ne 0 ]
	console=$TEST_WORKDIR/check/build-$KV-x86_64-kasan/boot/console.log
	grep -q 'seeded abort, 2500 works queued' "$console"
	grep -q '2500 works left queued ran when the case.s kthread exited' "$console"
	! grep -q 'BUG: KASAN' "$console"
}

# bats test_tags=full
@test "make gate-full on 7.3: x86_64 and arm64 lockdep, x86_64 KASAN" {
	timed run mk "$R" gate-full KVER=$KV
	[ "$status" -eq 0 ]
	for cell in "x86_64 lockdep" "x86_64 kasan" "arm64 lockdep"; do
		[[ "$output" =~ "gate $REV $cell: PASS (" ]]
	done
}
