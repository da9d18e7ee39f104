#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# cocci.bats - the Coccinelle semantic patches (coccinelle/): their test cases
# pass, and the runner really fails on a wrong expected output or reason.

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	command -v spatch >/dev/null || skip "spatch not installed (apt-get install coccinelle)"
}

@test "make cocci-test passes every case of both scripts" {
	run make -s -C "$TOP" cocci-test
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"cocci-test: "*" passed, 0 failed"* ]]
	[ "$(grep -c '^PASS fdget-' <<<"$output")" -ge 12 ]
	[ "$(grep -c '^PASS fput_nodefer-' <<<"$output")" -ge 12 ]
}

@test "a case whose .res is wrong fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d"
	cp "$TOP"/coccinelle/tests/fdget-assign.* "$TOP"/coccinelle/tests/fdget-return.* "$d/"
	# Expect the unconverted text where the script converts.
	cp "$d/fdget-assign.c" "$d/fdget-assign.res"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL fdget-assign: output differs from fdget-assign.res"* ]]
	[[ "$output" == *"PASS fdget-return"* ]]
}

@test "a must-not-convert case whose .res converts fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d"
	cp "$TOP"/coccinelle/tests/fput_nodefer-spinlock.* "$d/"
	sed -i 's/\tfput(file);/\tfput_nodefer(file);/' "$d/fput_nodefer-spinlock.res"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL fput_nodefer-spinlock: output differs"* ]]
}

@test "a rejection for the wrong reason fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d"
	cp "$TOP"/coccinelle/tests/fdget-loop.* "$d/"
	sed -i '1s,.*,// expect: rejected: reference escapes,' "$d/fdget-loop.c" "$d/fdget-loop.res"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL fdget-loop: report says"*"expected rejected: reference escapes"* ]]
}

@test "report mode prints every site as converted or rejected with a reason" {
	run spatch --very-quiet --macro-file "$TOP/coccinelle/macros.h" \
		--sp-file "$TOP/coccinelle/fdget.cocci" -D report \
		"$TOP/coccinelle/tests/fdget-assign.c" "$TOP/coccinelle/tests/fdget-field-get.c"
	echo "$output"
	[[ "$output" == *"fdget-assign.c:7: converted"* ]]
	[[ "$output" == *"fdget-field-get.c:4: rejected: result not held in a local struct file * variable"* ]]
}

@test "both scripts carry the scripts/coccinelle header and the three modes" {
	for s in "$TOP"/coccinelle/*.cocci; do
		grep -q '^/// ' "$s"
		grep -q '^// Confidence: ' "$s"
		grep -q '^// Copyright: ' "$s"
		grep -q '^// Options: ' "$s"
		grep -q '^// Keywords: ' "$s"
		grep -qx 'virtual patch' "$s"
		grep -qx 'virtual report' "$s"
		grep -qx 'virtual context' "$s"
	done
}
