#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# lint.bats - every shell script in the repo is shellcheck clean.

# No kernel build, no WORKDIR: tests/run runs this file beside the files
# that build and boot kernels.
# bats file_tags=beside-builds,quick

load helpers

@test "make lint: shellcheck finds nothing in the repo's shell scripts" {
	run make -s -C "$TOP" lint
	[ "$status" -eq 0 ]
	[[ "$output" == "lint: PASS ("*" scripts, shellcheck clean)" ]]
}

@test "make lint: catches a bad script and a finding in a sourced shell library" {
	copy_repo "$BATS_TEST_TMPDIR/r"
	printf '#!/bin/sh\necho $undefined_var\n' >"$BATS_TEST_TMPDIR/r/scripts/bad.sh"
	# A #! that is not on the first line does not make a shell script.
	printf 'text\n#!/bin/sh\necho $undefined_var\n' >"$BATS_TEST_TMPDIR/r/scripts/notes.txt"
	# shellcheck -x follows lib.sh but reports nothing inside it.
	printf '%s\n' 'echo $1' >>"$BATS_TEST_TMPDIR/r/scripts/lib.sh"
	git -C "$BATS_TEST_TMPDIR/r" add scripts/bad.sh scripts/notes.txt
	run make -s -C "$BATS_TEST_TMPDIR/r" lint
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" != *"notes.txt"* ]]
	[ "$(printf '%s\n' "$output" | grep -c '^In scripts/bad.sh line 2:$')" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -c '^In scripts/lib.sh line [0-9]*:$')" -eq 1 ]
	[[ "$(verdict lint)" == "lint: FAIL: shellcheck findings in 2 of "*" scripts" ]]
}
