#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# accel.bats - KVM when it works, else TCG (boot/lib-boot.sh choose_accel):
# the device, the host arch, the probe boot and its cache, and ACCEL. The
# probe runs the real QEMU against a fake device, or a fake QEMU that
# reaches init; no kernel is built.
# bats file_tags=quick

load helpers

# accel [VAR=VALUE...]: choose_accel for a dummy kernel and initramfs, in a
# workdir of this test; prints "ACCEL_USED: ACCEL_WHY".
accel() {
	: >"$BATS_TEST_TMPDIR/Image"
	: >"$BATS_TEST_TMPDIR/initrd"
	env WORKDIR="$BATS_TEST_TMPDIR/wd" KVM_PROBE_TIMEOUT=20 "$@" bash -c "PROG=boot; . '$TOP/boot/lib-boot.sh' &&
		choose_accel '$BATS_TEST_TMPDIR/Image' '$BATS_TEST_TMPDIR/initrd' && echo \"\$ACCEL_USED: \$ACCEL_WHY\""
}

@test "no KVM device: TCG, and why" {
	run accel KVM_DEVICE=/nonexistent/kvm
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "tcg: no /nonexistent/kvm" ]
	run accel KVM_DEVICE=/nonexistent/kvm ACCEL=kvm
	[ "$status" -ne 0 ]
	[ "$output" = "boot: error: ACCEL=kvm: no /nonexistent/kvm" ]
}

@test "a device that is there but does not boot a guest: the probe fails, TCG, once" {
	# A regular file stands in for the device; QEMU itself opens
	# /dev/kvm, which this machine does not have or cannot boot with.
	: >"$BATS_TEST_TMPDIR/kvm"
	run accel KVM_DEVICE="$BATS_TEST_TMPDIR/kvm"
	[ "$status" -eq 0 ]
	[[ "$output" == *"probing KVM: qemu-system-x86_64 -accel kvm"* ]]
	[[ "${lines[-1]}" == "tcg: KVM probe: "* ]]
	# The result is kept: the next boot does not probe again.
	run accel KVM_DEVICE="$BATS_TEST_TMPDIR/kvm"
	[[ "$output" != *"probing KVM"* ]]
	[[ "${lines[-1]}" == "tcg: KVM probe: "* ]]
	run accel KVM_DEVICE="$BATS_TEST_TMPDIR/kvm" ACCEL=kvm
	[ "$status" -ne 0 ]
	[[ "$output" == "boot: error: ACCEL=kvm: KVM probe: "* ]]
}

@test "a probe that reaches init: KVM; ACCEL=tcg still forces TCG" {
	: >"$BATS_TEST_TMPDIR/kvm"
	# A QEMU that boots to init at once: it writes the kernel's line to
	# the serial file it is given, and says which accel it was asked for.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/qemu-system-x86_64" <<-'SH'
		#!/bin/sh
		[ "$1" != --version ] || { echo "QEMU emulator version 0.0-fake"; exit 0; }
		[ "$*" != "-accel help" ] || { printf 'Accelerators supported in QEMU binary:\ntcg\nkvm\n'; exit 0; }
		while [ $# -gt 0 ]; do
			case $1 in
			-accel) echo "accel $2" >>"${0%/*}/calls" ;;
			-serial) log=${2#file:} ;;
			esac
			shift
		done
		echo "Run /bin/busybox as init process" >"$log"
	SH
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	run accel KVM_DEVICE="$BATS_TEST_TMPDIR/kvm" PATH="$BATS_TEST_TMPDIR/bin:$PATH"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "kvm: KVM probe passed" ]
	[ "$(cat "$BATS_TEST_TMPDIR/bin/calls")" = "accel kvm" ]
	run accel KVM_DEVICE="$BATS_TEST_TMPDIR/kvm" PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=tcg
	[ "${lines[-1]}" = "tcg: ACCEL=tcg" ]
	run accel KVM_DEVICE="$BATS_TEST_TMPDIR/kvm" PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=hvf
	[ "$status" -ne 0 ]
	[ "$output" = "boot: error: unknown ACCEL 'hvf' (auto, kvm, tcg)" ]
}

@test "a guest of another arch never uses KVM" {
	: >"$BATS_TEST_TMPDIR/kvm"
	run accel ARCH=arm64 KVM_DEVICE="$BATS_TEST_TMPDIR/kvm"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "tcg: no KVM for an arm64 guest on an amd64 host" ]
}

@test "a QEMU without the -accel the boot asks for: one line naming it, nothing run" {
	# A QEMU built without KVM lists tcg only; one from before the -accel
	# option (an "old" file beside it here) refuses the option itself.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/qemu-system-x86_64" <<-'SH'
		#!/bin/sh
		case "$*" in
		--version) echo "QEMU emulator version 2.0.0" ;;
		"-accel help")
			[ ! -e "${0%/*}/old" ] || { echo "qemu: -accel: invalid option" >&2; exit 1; }
			printf 'Accelerators supported in QEMU binary:\ntcg\n' ;;
		*) echo ran >>"${0%/*}/ran" ;;
		esac
	SH
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	: >"$BATS_TEST_TMPDIR/Image"
	: >"$BATS_TEST_TMPDIR/initrd"
	qrun() {
		run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" ARCH=x86_64 QEMU_ACCEL=$1 "$TOP/boot/qemu-run.sh" \
			"$BATS_TEST_TMPDIR/Image" "$BATS_TEST_TMPDIR/initrd" "$BATS_TEST_TMPDIR/log" 5
	}
	qrun kvm
	[ "$status" -ne 0 ]
	[ "$output" = "qemu-run: error: qemu-system-x86_64 (QEMU emulator version 2.0.0) has no '-accel kvm', which this boot asks for" ]
	[ ! -e "$BATS_TEST_TMPDIR/bin/ran" ]
	qrun tcg
	[ "$status" -eq 0 ]
	[ -e "$BATS_TEST_TMPDIR/bin/ran" ]
	rm "$BATS_TEST_TMPDIR/bin/ran"
	touch "$BATS_TEST_TMPDIR/bin/old"
	qrun tcg
	[ "$status" -ne 0 ]
	[ "$output" = "qemu-run: error: qemu-system-x86_64 (QEMU emulator version 2.0.0) has no '-accel tcg', which this boot asks for" ]
	[ ! -e "$BATS_TEST_TMPDIR/bin/ran" ]
}
