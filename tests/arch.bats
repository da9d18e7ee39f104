#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# arch.bats - arches as data (boot/arch/), the gate matrix and the known
# issues of a base: what can be checked without building a kernel. The arm64
# boots themselves are in tests/gate.bats.

# bats file_tags=quick

load helpers

FIX=$BATS_TEST_DIRNAME/fixtures/console

# scan ARCH CONFIG LOG: boot/console-scan.sh as boot.sh runs it for a cell.
scan() {
	ARCH=$1 KVER=6.1 WORKDIR=$TEST_WORKDIR "$TOP/boot/console-scan.sh" "$3" "$2"
}

@test "ARCH: an unknown arch is a one-line error naming the arches" {
	for t in boot gate check-build bench; do
		run make -s -C "$TOP" "$t" ARCH=x86 WORKDIR="$TEST_WORKDIR"
		[ "$status" -ne 0 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"unknown ARCH 'x86' (arches: arm64 x86_64)"* ]]
	done
	run env ARCH=mips "$TOP/boot/boot.sh" lockdep
	[ "$status" -ne 0 ]
	[ "$output" = "boot: error: unknown ARCH 'mips' (arches: arm64 x86_64)" ]
}

@test "boot/arch: every arch file has every field, its kconfig part and a matrix cell" {
	for conf in "$TOP"/boot/arch/*.conf; do
		a=$(basename "$conf" .conf)
		[ -f "$TOP/boot/arch/$a.config" ]
		for f in LINUX_ARCH SRCARCH KERNEL_TARGET KERNEL_IMAGE DEB_ARCH GUEST_CC \
			QEMU QEMU_PACKAGE CONSOLE LAVA_ARCH; do
			v=$(sh -c ". '$conf' && eval printf %s \"\\\${$f:-}\"")
			[ -n "$v" ] || { echo "$conf: no $f"; false; }
		done
		grep -q "^$a[[:space:]]" "$TOP/boot/gate-matrix" || { echo "$a: not in the matrix"; false; }
		# The lab boots what LAVA_CPU and LAVA_MACHINE say, the gate
		# what QEMU_PARAMS says: they must agree.
		p=$(sh -c ". '$conf' && printf '%s|%s|%s' \"\$QEMU_PARAMS\" \"\${LAVA_CPU:-}\" \"\${LAVA_MACHINE:-}\"")
		IFS='|' read -r qp cpu mach <<<"$p"
		if [ -n "$cpu" ]; then [[ " $qp " == *" -cpu $cpu "* ]]; else [[ " $qp " != *" -cpu "* ]]; fi
		if [ -n "$mach" ]; then [[ " $qp " == *" -M $mach "* ]]; else [[ " $qp " != *" -M "* ]]; fi
	done
}

@test "make deps: every arch's QEMU, cross compiler and static busybox are there" {
	for conf in "$TOP"/boot/arch/*.conf; do
		eval "$(sh -c ". '$conf' && printf 'q=%s c=\"%s\" cc=%s' \"\$QEMU\" \"\$CROSS_PACKAGES\" \"\$GUEST_CC\"")"
		command -v "$q"
		command -v "$cc"
		for p in $c; do
			dpkg-query -W -f='${Status}' "$p" | grep -q 'ok installed'
		done
		a=$(basename "$conf" .conf)
		bb=$(ARCH=$a WORKDIR=${WORKDIR:-$HOME/.cache/safer-fput} bash -c \
			". '$TOP/boot/lib-boot.sh' && busybox_path")
		file -L "$bb" | grep -q 'statically linked'
		# The guest compiler builds for the arch the busybox runs on.
		printf 'int main(void) { return 0; }\n' >"$BATS_TEST_TMPDIR/t.c"
		"$cc" -static -o "$BATS_TEST_TMPDIR/t-$a" "$BATS_TEST_TMPDIR/t.c"
		[ "$(file -L "$bb" | sed -E 's/.*ELF 64-bit LSB [a-z]+, ([^,]*),.*/\1/')" = \
			"$(file "$BATS_TEST_TMPDIR/t-$a" | sed -E 's/.*ELF 64-bit LSB [a-z]+, ([^,]*),.*/\1/')" ]
	done
}

@test "gate-check: a bad cell or matrix line is a one-line error" {
	run make -s -C "$TOP" gate-check GATE_CELLS=arm64 WORKDIR="$TEST_WORKDIR"
	[ "$status" -ne 0 ]
	[[ "$output" == *"gate-check: error: bad cell 'arm64' (ARCH/CONFIG, e.g. x86_64/lockdep)"* ]]
	run make -s -C "$TOP" gate-check GATE_CELLS=riscv/lockdep WORKDIR="$TEST_WORKDIR"
	[ "$status" -ne 0 ]
	[[ "$output" == *"gate-check: error: unknown ARCH 'riscv' (arches: arm64 x86_64)"* ]]
	copy_repo "$BATS_TEST_TMPDIR/r"
	printf 'arm64\tkcsan\n' >>"$BATS_TEST_TMPDIR/r/boot/gate-matrix"
	run make -s -C "$BATS_TEST_TMPDIR/r" gate-check WORKDIR="$TEST_WORKDIR"
	[ "$status" -ne 0 ]
	[[ "$output" == *"gate-check: error: unknown CONFIG 'kcsan' (configs: base lockdep kasan)"* ]]
	# A line that is not "ARCH CONFIG" is no cell less: make and the
	# scripts both refuse it.
	printf 'arm64 lockdep extra\n' >>"$BATS_TEST_TMPDIR/r/boot/gate-matrix"
	n=$(wc -l <"$BATS_TEST_TMPDIR/r/boot/gate-matrix")
	run make -s -C "$BATS_TEST_TMPDIR/r" gate-full WORKDIR="$TEST_WORKDIR"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"boot/gate-matrix line $n: not \"ARCH CONFIG\""* ]]
	run env WORKDIR="$TEST_WORKDIR" "$BATS_TEST_TMPDIR/r/boot/gate-check"
	[ "$status" -ne 0 ]
	[[ "$output" == *"boot/gate-matrix line $n: not \"ARCH CONFIG\""* ]]
}

@test "known-issues: 6.1's clk lockdep warnings pass on arm64 lockdep only, and are named" {
	log=$FIX/arm64-lockdep-clk.log
	run scan arm64 lockdep "$log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"console-scan: skipped 5 report(s) boot/known-issues lists in clk-leaf-mux-set-rate-parent, first: WARNING: CPU: 0 PID: 259 at ../linux-6.1/drivers/clk/clk.c:766 "* ]]
	# Another cell: the same reports are reports.
	for cell in "x86_64 lockdep" "arm64 kasan"; do
		run scan $cell "$log"
		[ "$status" -eq 1 ]
		[[ "${lines[-1]}" == "WARNING: CPU: 0 PID: 259 at ../linux-6.1/drivers/clk/clk.c:766 clk_core_get_boundaries+0x3c/0xb8" ]]
	done
	run env ARCH=arm64 KVER=6.12 WORKDIR="$TEST_WORKDIR" "$TOP/boot/console-scan.sh" "$log" lockdep
	[ "$status" -eq 1 ]
}

@test "known-issues: 7.3's clk divider suite's warnings pass on arm64 lockdep of 7.3 only" {
	log=$FIX/arm64-7.3-lockdep-clk-divider.log
	run env ARCH=arm64 KVER=7.3 WORKDIR="$TEST_WORKDIR" "$TOP/boot/console-scan.sh" "$log" lockdep
	[ "$status" -eq 0 ]
	[[ "$output" == *"console-scan: skipped 15 report(s) boot/known-issues lists in clk_divider_bestdiv, first: WARNING: ../linux-7.3/drivers/clk/clk.c:838 at clk_core_get_boundaries+0x3c/0xb8, "* ]]
	# 6.1's line does not cover 7.3's suite, nor 7.3's another base.
	for kv in 6.1 6.12; do
		run env ARCH=arm64 KVER=$kv WORKDIR="$TEST_WORKDIR" "$TOP/boot/console-scan.sh" "$log" lockdep
		[ "$status" -eq 1 ]
		[[ "${lines[-1]}" == "WARNING: ../linux-7.3/drivers/clk/clk.c:838 at clk_core_get_boundaries+0x3c/0xb8, CPU#1: kunit_try_catch/1888" ]]
	done
}

@test "known-issues: the same warning in another suite, after the suite, or another warning in it, fails" {
	# In the task_work suite, not the clk one.
	sed 's/# Subtest: clk-leaf-mux-set-rate-parent/# Subtest: task_work/' \
		"$FIX/arm64-lockdep-clk.log" >"$BATS_TEST_TMPDIR/moved.log"
	run scan arm64 lockdep "$BATS_TEST_TMPDIR/moved.log"
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "WARNING: CPU: 0 PID: 259 at ../linux-6.1/drivers/clk/clk.c:766 "* ]]
	# After the clk suite's own result line: outside the suite.
	sed '/^ok [0-9]* clk-leaf-mux-set-rate-parent/a WARNING: CPU: 0 PID: 1 at ../linux-6.1/drivers/clk/clk.c:766 clk_core_get_boundaries+0x3c/0xb8' \
		"$FIX/arm64-lockdep-clk.log" >"$BATS_TEST_TMPDIR/after.log"
	run scan arm64 lockdep "$BATS_TEST_TMPDIR/after.log"
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "WARNING: CPU: 0 PID: 1 at ../linux-6.1/drivers/clk/clk.c:766 "* ]]
	# In the clk suite, but a warning of fs/, not of the clk core.
	sed '0,/drivers\/clk\/clk.c:766 clk_core_get_boundaries/s//fs\/file_table.c:400 fput_nodefer/' \
		"$FIX/arm64-lockdep-clk.log" >"$BATS_TEST_TMPDIR/other.log"
	run scan arm64 lockdep "$BATS_TEST_TMPDIR/other.log"
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "WARNING: CPU: 0 PID: 259 at ../linux-6.1/fs/file_table.c:400 fput_nodefer+"* ]]
}

@test "boot/timeouts: every cell has a timeout, an arch's own line wins over '*', BOOT_TIMEOUT over both" {
	t() { ARCH=$1 WORKDIR=$TEST_WORKDIR bash -c "PROG=boot; . '$2/boot/lib-boot.sh' && boot_timeout $3"; }
	while read -r a c; do
		[[ "$(t "$a" "$TOP" "$c")" =~ ^[1-9][0-9]*$ ]]
	done < <(sed 's/#.*//' "$TOP/boot/gate-matrix" | awk 'NF == 2')
	cp -a "$TOP" "$BATS_TEST_TMPDIR/r"
	r=$BATS_TEST_TMPDIR/r
	printf 'lockdep\tarm64\t999\n' >>"$r/boot/timeouts"
	[ "$(t arm64 "$r" lockdep)" = 999 ]
	[ "$(t x86_64 "$r" lockdep)" = "$(t x86_64 "$TOP" lockdep)" ]
	[ "$(BOOT_TIMEOUT=7 t arm64 "$r" lockdep)" = 7 ]
	sed -i '/^kasan/d' "$r/boot/timeouts"
	run t x86_64 "$r" kasan
	[ "$status" -ne 0 ]
	[ "$output" = "boot: error: boot/timeouts has no timeout for kasan on x86_64" ]
}
