#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# job.sh - the LAVA job and device files of one cell (ARCH from the
# environment, CONFIG): lava/job.yaml.in and lava/device.yaml.in filled in
# from boot/arch/$ARCH.conf, with the kernel image and initramfs of the boot
# in BUILD (a gate build dir, or a fault build dir) staged next to them and
# named with their sha256 in the job.
#
# usage: job.sh CONFIG BUILD OUT URL
#   OUT gets job.yaml, device.yaml, the kernel image and initramfs.cpio.gz;
#   URL is where a lab's dispatcher downloads OUT's files from (file://OUT
#   for a local lava-run).
set -euo pipefail
PROG=lava-jobs
. "$(dirname "$0")/../boot/lib-boot.sh"

[ $# -eq 4 ] || die "usage: job.sh CONFIG BUILD OUT URL"
config=$1 build=$2 out=$3 url=${4%/}
check_config "$config"
check_rev
[ -n "$LAVA_ARCH" ] || die "boot/arch/$ARCH.conf has no LAVA_ARCH (the job's context arch)"
kernel=$build/$KERNEL_IMAGE
ramdisk=$build/boot/initramfs.cpio.gz
if [ ! -f "$kernel" ] || [ ! -f "$ramdisk" ]; then
	die "$ARCH $config: no booted build in $build (run 'make gate ARCH=$ARCH CONFIG=$config')"
fi
[ -f "$build/boot/head" ] || die "$ARCH $config: $build/boot/head missing: boot it again"
head=$(cat "$build/boot/head")
base=$(tgit rev-parse -q --verify "$(base_tag)^{commit}" || echo unknown)

mkdir -p "$out"
kfile=${KERNEL_IMAGE##*/}
cp "$kernel" "$out/$kfile"
cp "$ramdisk" "$out/initramfs.cpio.gz"
sha() { sha256sum "$1" | cut -d' ' -f1; }

# The job's timeouts: the gate's QEMU timeout of the config, in minutes.
secs=$(boot_timeout "$config")
test_min=$(((secs + 59) / 60))
context=
[ -z "$LAVA_CPU" ] || context="  cpu: $LAVA_CPU"
[ -z "$LAVA_MACHINE" ] || context="$context${context:+
}  machine: $LAVA_MACHINE"
qemu_opts=
[ -z "$QEMU_PARAMS" ] || qemu_opts="          - $QEMU_PARAMS"

# fill TEMPLATE: replace every @NAME@; a line that is just @NAME@ with an
# empty value goes away.
fill() {
	awk -v REV="$REV" -v ARCH="$ARCH" -v CONFIG="$config" -v HEAD="$head" \
		-v BASE="$base" -v LAVA_ARCH="$LAVA_ARCH" -v LAVA_CONTEXT="$context" \
		-v CONSOLE="$CONSOLE" -v URL="$url" -v KERNEL_FILE="$kfile" \
		-v KERNEL_SHA256="$(sha "$out/$kfile")" \
		-v RAMDISK_SHA256="$(sha "$out/initramfs.cpio.gz")" \
		-v QEMU="$QEMU" -v QEMU_OPTIONS="$qemu_opts" \
		-v JOB_MINUTES=$((test_min + 15)) -v TEST_MINUTES="$test_min" '
	BEGIN { split("REV ARCH CONFIG HEAD BASE LAVA_ARCH LAVA_CONTEXT CONSOLE URL " \
		"KERNEL_FILE KERNEL_SHA256 RAMDISK_SHA256 QEMU QEMU_OPTIONS " \
		"JOB_MINUTES TEST_MINUTES", names, " ")
		v["REV"] = REV; v["ARCH"] = ARCH; v["CONFIG"] = CONFIG; v["HEAD"] = HEAD
		v["BASE"] = BASE; v["LAVA_ARCH"] = LAVA_ARCH; v["LAVA_CONTEXT"] = LAVA_CONTEXT
		v["CONSOLE"] = CONSOLE; v["URL"] = URL; v["KERNEL_FILE"] = KERNEL_FILE
		v["KERNEL_SHA256"] = KERNEL_SHA256; v["RAMDISK_SHA256"] = RAMDISK_SHA256
		v["QEMU"] = QEMU; v["QEMU_OPTIONS"] = QEMU_OPTIONS
		v["JOB_MINUTES"] = JOB_MINUTES; v["TEST_MINUTES"] = TEST_MINUTES }
	/^@[A-Z_0-9]+@$/ { n = substr($0, 2, length($0) - 2); if (v[n] == "") next }
	# gsub reads "&" and "\\" in its replacement: a signed URL has "&".
	{ for (i in names) { r = v[names[i]]; gsub(/[\\&]/, "\\\\&", r)
		gsub("@" names[i] "@", r) } }
	/@[A-Z_0-9]+@/ { print FILENAME ": unfilled placeholder: " $0 > "/dev/stderr"; exit 1 }
	{ print }' "$1"
}
fill "$TOP/lava/job.yaml.in" >"$out/job.yaml"
fill "$TOP/lava/device.yaml.in" >"$out/device.yaml"
note "$ARCH $config: $out/job.yaml ($kfile ${head:0:12}), $out/device.yaml"
