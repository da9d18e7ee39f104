#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# bench.bats - the benchmark entry points refuse bad input at once, with one
# line, before any kernel is built or booted. (A real comparison takes two
# kernel builds and ten TCG boots; its numbers are in patches 1 and 4.)

load helpers

setup() {
	copy_repo "$BATS_TEST_TMPDIR/r"
	R=$BATS_TEST_TMPDIR/r
	BD=$BATS_TEST_TMPDIR/bench
}

# one_line_error: failed, and said so in exactly one line of its own.
one_line_error() {
	[ "$status" -ne 0 ]
	[ "$(printf '%s\n' "$output" | grep -c "$1")" -eq 1 ]
}

@test "make bench: an unknown BENCH is refused before any build, naming the benchmarks" {
	t0=$SECONDS
	run mk "$R" bench BENCH=nope BENCH_DIR="$BD"
	echo "$output"
	one_line_error "^bench: error: no guest benchmark 'nope' (have: exit_files exit_latency open_close)$"
	[ ! -e "$BD" ]
	[ $((SECONDS - t0)) -lt 10 ]
}

@test "make bench: a BENCH_RUNS that is not a positive integer is refused" {
	for runs in 0 x -1 ''; do
		run mk "$R" bench BENCH_RUNS="$runs" BENCH_DIR="$BD"
		echo "$runs: $output"
		one_line_error "^bench: error: BENCH_RUNS must be a positive integer, got '$runs'$"
	done
	[ ! -e "$BD" ]
}

@test "make bench: a BENCH_CONFIG with no bench/configs file is refused, naming the variants" {
	t0=$SECONDS
	run mk "$R" bench BENCH_CONFIG=nope BENCH_DIR="$BD"
	echo "$output"
	one_line_error "^bench: error: no kernel variant 'nope' (have: rseq)$"
	run mk "$R" bench BENCH_CONFIG=../bench BENCH_DIR="$BD"
	one_line_error "^bench: error: BENCH_CONFIG '../bench' is not a name of bench/configs/"
	[ ! -e "$BD" ]
	[ $((SECONDS - t0)) -lt 10 ]
}

@test "bench/guest: every benchmark builds warning-free with each arch's GUEST_CC" {
	for conf in "$R"/boot/arch/*.conf; do
		cc=$(. "$conf" && echo "$GUEST_CC")
		for src in "$R"/bench/guest/*.c; do
			run "$cc" -static -O2 -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/a.out" "$src"
			echo "$cc $src: $output"
			[ "$status" -eq 0 ]
		done
	done
}

@test "bench/run: bad arguments get one line each and boot nothing" {
	img=$BATS_TEST_TMPDIR/bzImage
	: >"$img"
	while IFS='|' read -r want args; do
		# shellcheck disable=SC2086 # the argument list is split on purpose
		run "$R/bench/run" $args
		echo "$args -> $output"
		one_line_error "^bench/run: $want"
	done <<EOF
usage: |--kernel a=$img
no guest benchmark .*/nope.c$|--bench nope --kernel a=$img
at least one --kernel|--bench exit_files
--kernel wants LABEL=IMAGE, got 'a'$|--bench exit_files --kernel a
no kernel image /nonexistent for a$|--bench exit_files --kernel a=/nonexistent
duplicate kernel label a$|--bench exit_files --kernel a=$img --kernel a=$img
--runs must be a positive integer$|--bench exit_files --runs 0 --kernel a=$img
--max-ratio must be a positive number$|--bench exit_files --max-ratio x --kernel a=$img
EOF
	[ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'bench-exit_files.*' -newer "$img")" ]
}
