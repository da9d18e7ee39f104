#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# port.bats - make port: one base's series applied to another base's tree.
#
# The series ported is tests/fixtures/port/: four patches on 6.1's base,
# one per outcome on 6.12 (as it is, at other line numbers, already in
# 6.12, conflicting). It replaces series/6.1/v1 in a repo copy.

load helpers

setup_file() {
	R=$BATS_FILE_TMPDIR/repo
	export R
	copy_repo "$R"
	rm -rf "$R/series/6.1/v1"
	mkdir -p "$R/series/6.1/v1" "$R/series/6.1/v8"
	cp "$TOP"/tests/fixtures/port/*.patch "$R/series/6.1/v1/"
	# v8: the same without the patch that conflicts.
	cp "$TOP"/tests/fixtures/port/000[123]-*.patch "$R/series/6.1/v8/"
	git -C "$R" add -A
	git -C "$R" -c user.name=tests -c user.email=tests@localhost commit -q -m "tests: port fixtures"
	mkdir -p "$TEST_WORKDIR"
	mk "$R" tree >"$BATS_FILE_TMPDIR/tree.log" 2>&1
	mk "$R" tree KVER=6.12 >>"$BATS_FILE_TMPDIR/tree.log" 2>&1
}

# port.bats is the last file of either tier to read 6.12's tree.
teardown_file() {
	drop_scratch "$TEST_WORKDIR/port" "$TEST_WORKDIR/linux-6.12"
}

t612() {
	git -C "$TEST_WORKDIR/linux-6.12" "$@"
}

teardown() {
	t612 for-each-ref --format='%(refname)' refs/heads/port refs/safer-fput/port-made |
		xargs -r -n1 git -C "$TEST_WORKDIR/linux-6.12" update-ref -d
}

@test "make port: each patch named applied, with fuzz, already upstream or conflicting; TO's branch and checkout untouched" {
	head=$(t612 rev-parse HEAD)
	status_before=$(t612 status --porcelain --untracked-files=no)
	run mk "$R" port FROM=6.1 TO=6.12 REV=v1
	[ "$status" -ne 0 ]
	echo "$output" | grep -qx '\[ 1/4\] applied           exec_domain: fixture that applies to 6.12 as it is'
	echo "$output" | grep -qx '\[ 2/4\] applied with fuzz task_work: fixture that applies to 6.12 at other line numbers (at other line numbers)'
	echo "$output" | grep -qx '\[ 3/4\] already upstream  task_work: fixture that 6.12 already has (empty after a 3-way merge)'
	echo "$output" | grep -qx '\[ 4/4\] conflicts         task_work: fixture that conflicts with 6.12 (in kernel/task_work.c)'
	[ "$(verdict 'port ')" = "port 6.1/v1 -> 6.12: FAIL: 1 of 4 patches do not apply (4): 1 applied, 1 with fuzz, 1 already upstream, 1 conflicting; the rest is on port/safer-fput-6.1-v1" ]
	# The two that applied, on 6.12's base.
	base=$(t612 rev-parse 'base/linux-source-6.12.118-1_deb12u1^{commit}')
	[ "$(t612 rev-list --count "$base..port/safer-fput-6.1-v1")" = 2 ]
	[ "$(t612 rev-parse port/safer-fput-6.1-v1~2)" = "$base" ]
	t612 show port/safer-fput-6.1-v1:kernel/task_work.c | grep -q 'Note: the order works run in is not guaranteed'
	[ "$(t612 rev-parse HEAD)" = "$head" ]
	[ "$(t612 status --porcelain --untracked-files=no)" = "$status_before" ]
	# The source series as commits on 6.1's base, for range-diffs.
	[ "$(t612 rev-list --count refs/safer-fput/src/6.1/base..refs/safer-fput/src/6.1/v1)" = 4 ]
}

@test "make port: a series that applies passes; a second run replaces its own branch" {
	run mk "$R" port FROM=6.1 TO=6.12 REV=v8
	[ "$status" -eq 0 ]
	[ "$(verdict 'port ')" = "port 6.1/v8 -> 6.12: PASS (3 patches: 1 applied, 1 with fuzz, 1 already upstream, 0 conflicting) on port/safer-fput-6.1-v8" ]
	first=$(t612 rev-parse port/safer-fput-6.1-v8)
	run mk "$R" port FROM=6.1 TO=6.12 REV=v8
	[ "$status" -eq 0 ]
	# Same patches, same dates, same committer: the same commits.
	[ "$(t612 rev-parse port/safer-fput-6.1-v8)" = "$first" ]
}

@test "make port: a port branch with commits of someone else's is not overwritten" {
	run mk "$R" port FROM=6.1 TO=6.12 REV=v8
	[ "$status" -eq 0 ]
	tip=$(t612 rev-parse port/safer-fput-6.1-v8)
	mine=$(t612 commit-tree -p "$tip" -m "hand fix-up" "$tip^{tree}")
	t612 update-ref refs/heads/port/safer-fput-6.1-v8 "$mine"
	run mk "$R" port FROM=6.1 TO=6.12 REV=v8
	[ "$status" -ne 0 ]
	[[ "${lines[0]}" == "port: error: port/safer-fput-6.1-v8 in $TEST_WORKDIR/linux-6.12 has commits no make port made; rename or delete it (nothing touched)" ]]
	[ "$(t612 rev-parse port/safer-fput-6.1-v8)" = "$mine" ]
}

@test "make port: bad FROM, TO or REV refused in one line" {
	run mk "$R" port
	[ "$status" -ne 0 ]
	[[ "${lines[0]}" == "port: error: usage: make port FROM=KVER TO=KVER [REV=vN] (bases: "* ]]
	run mk "$R" port FROM=6.1 TO=6.1
	[[ "${lines[0]}" == "port: error: FROM and TO are the same base (6.1)" ]]
	run mk "$R" port FROM=5.10 TO=6.12
	[[ "${lines[0]}" == "port: error: no series for FROM=5.10 (bases: "* ]]
	run mk "$R" port FROM=6.1 TO=6.12 REV=v9
	[[ "${lines[0]}" == "port: error: no revision v9 of base 6.1 (have: v1 "* ]]
	run mk "$R" port FROM=6.1 TO=9.9
	[ "$status" -ne 0 ]
	[[ "${lines[0]}" == "deps: error: unknown KVER '9.9': no package linux-source-9.9 (installed: "* ]]
}
