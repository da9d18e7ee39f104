#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# bats file_tags=beside-builds,quick
# replica.bats - make bench-replica, the user-space replica of
# task_work_run()'s loops (bench/replica/): it builds, runs LIFO and FIFO
# (checking that the works ran in the order wanted), reports every
# repetition and the medians and ends with one verdict; bad input is
# refused in one line before any work.

# No kernel build and no test WORKDIR: each test has a workdir of its own
# under its tmpdir, so tests/run runs this file beside the files that build
# and boot kernels. Tiny sizes and a small flush buffer: a second or two.

load helpers

setup() {
	W=$BATS_TEST_TMPDIR/w
	CONF=$TOP/bench/replica/struct-file.conf
	SIZE=$(sed -n 's/^FILP_OBJECT_SIZE=//p' "$CONF")
	OFF=$(sed -n 's/^F_TASK_WORK_OFFSET=//p' "$CONF")
}

# replica VAR=VALUE...: make bench-replica in this repo, in a workdir of its own.
replica() {
	make -s -C "$TOP" WORKDIR="$W" bench-replica "$@"
}

# count REGEX: how many lines of $output match.
count() {
	# shellcheck disable=SC2154 # bats' run sets $output
	printf '%s\n' "$output" | grep -cE "$1"
}

# one_line_error REGEX: failed, with exactly one line of its own (besides
# make's "***" line), and that line matches.
one_line_error() {
	# shellcheck disable=SC2154 # bats' run sets $status
	[ "$status" -ne 0 ]
	[ "$(printf '%s\n' "$output" | grep -vc '^make: \*\*\*')" -eq 1 ]
	[ "$(count "$1")" -eq 1 ]
}

@test "make bench-replica: every repetition, LIFO and FIFO alternating, medians, one PASS verdict" {
	run replica REPLICA_N='10000 20000' REPLICA_RUNS=2 REPLICA_FLUSH_MIB=64
	echo "$output"
	[ "$status" -eq 0 ]
	[ -n "$SIZE" ] && [ -n "$OFF" ]
	[ "$(count '^task_work_reverse: cpu .+; LLC [0-9.]+ MiB \((sysfs|cpuid|unknown)\); load ')" -eq 1 ]
	[ "$(count "^task_work_reverse: struct file $SIZE B, f_task_work at $OFF, ascending; flush 64 MiB; THP .*; runs 2$")" -eq 1 ]
	ms='[0-9]+\.[0-9]{3}'
	for n in 10000 20000; do
		[ "$(count "^run N=$n rep=1 first=LIFO lifo_ms=$ms fifo_ms=$ms reverse_ms=$ms fifo_run_ms=$ms$")" -eq 1 ]
		[ "$(count "^run N=$n rep=2 first=FIFO lifo_ms=$ms fifo_ms=$ms reverse_ms=$ms fifo_run_ms=$ms$")" -eq 1 ]
		[ "$(count "^median N=$n runs=2 lifo_ms=$ms fifo_ms=$ms ratio=[0-9]+\.[0-9]{3} reverse_ms=$ms reverse_ns_per_file=[0-9]+\.[0-9]{2}$")" -eq 1 ]
	done
	[ "$(count '^run ')" -eq 4 ]
	[ "$(count '^bench-replica: ')" -eq 1 ]
	verdict_is '^bench-replica: PASS \(FIFO/LIFO N=10000 x[0-9]+\.[0-9]{2}, N=20000 x[0-9]+\.[0-9]{2}; reversal [0-9.]+ ms / 20k\)$'
	# Built in the workdir, not in the repository.
	[ -x "$W/bench-replica/task_work_reverse" ]
	[ "$(find "$TOP/bench/replica" -mindepth 1 -printf '%f\n' | sort | paste -sd' ')" = \
		"struct-file.conf task_work_reverse.c" ]
}

@test "make bench-replica: REPLICA_SLAB_RANDOM hands the files out shuffled within each slab, still run in order" {
	run replica REPLICA_N=10000 REPLICA_RUNS=1 REPLICA_FLUSH_MIB=64 REPLICA_SLAB_RANDOM=21
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(count "^task_work_reverse: struct file $SIZE B, f_task_work at $OFF, random within slabs of 21; ")" -eq 1 ]
	[ "$(count '^run N=10000 rep=1 first=LIFO ')" -eq 1 ]
	verdict_is '^bench-replica: PASS \(FIFO/LIFO N=10000 x[0-9]+\.[0-9]{2}; reversal [0-9.]+ ms / 10k\)$'
}

@test "make bench-replica: a bad REPLICA_RUNS, REPLICA_N or REPLICA_SLAB_RANDOM is refused in one line, before any work" {
	t0=$SECONDS
	for runs in 0 x -1 '' 1001; do
		run replica REPLICA_RUNS="$runs" REPLICA_N=10000
		echo "REPLICA_RUNS=$runs: $output"
		one_line_error "^bench-replica: FAIL: REPLICA_RUNS must be a positive integer \(at most 1000\), got '$runs'$"
	done
	for n in abc '10000 x' 0 -5 '*'; do
		run replica REPLICA_RUNS=2 REPLICA_N="$n"
		echo "REPLICA_N=$n: $output"
		one_line_error "^bench-replica: FAIL: REPLICA_N must be numbers of files \(1\.\.100000000\), got '"
	done
	run replica REPLICA_RUNS=2 REPLICA_N=' '
	one_line_error "^bench-replica: FAIL: REPLICA_N is empty"
	for v in 0 x -1; do
		run replica REPLICA_RUNS=2 REPLICA_N=10000 REPLICA_SLAB_RANDOM="$v"
		one_line_error "^bench-replica: FAIL: REPLICA_SLAB_RANDOM must be a positive integer \(objects per slab\) or empty, got '$v'$"
	done
	[ ! -e "$W" ]
	[ $((SECONDS - t0)) -lt 10 ]
}

@test "task_work_reverse: bad arguments, and a run too big for RAM, get one line on stderr and exit 1" {
	bin=$BATS_TEST_TMPDIR/task_work_reverse
	gcc -O2 -Wall -Wextra -Werror -DFILP_OBJECT_SIZE="$SIZE" -DF_TASK_WORK_OFFSET="$OFF" \
		-o "$bin" "$TOP/bench/replica/task_work_reverse.c"
	while IFS='|' read -r want args; do
		rc=0
		# shellcheck disable=SC2086 # the argument list is split on purpose
		"$bin" $args >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
		echo "$args -> $rc: $(cat "$BATS_TEST_TMPDIR/err")"
		[ "$rc" -eq 1 ]
		[ ! -s "$BATS_TEST_TMPDIR/out" ]
		[ "$(wc -l <"$BATS_TEST_TMPDIR/err")" -eq 1 ]
		grep -qE "^task_work_reverse: error: $want" "$BATS_TEST_TMPDIR/err"
	done <<'EOF'
RUNS \(-r\) must be in 1\.\.1000, got '0'$|-r 0 10
RUNS \(-r\) must be a positive integer, got 'x'$|-r x 10
usage: |-x 10
N must be a positive integer, got 'abc'$|abc
N must be in 1\.\.100000000, got '0'$|10 0
N must be in 1\.\.100000000, got '100000001'$|100000001
SLAB_OBJS \(-s\) must be a positive integer, got 'x'$|-s x 10
N=10 files \(0 MiB\) and a 1048576 MiB flush buffer need more than half of RAM|-f 1048576 10
EOF
}
