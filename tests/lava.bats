#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# lava.bats - `make lava-jobs`: a job and device file per matrix cell that
# LAVA's own schemas (lava-common, strict) accept, and a validator that
# rejects what a lab would reject. The artifacts here are stand-ins (no
# kernel is built): what is checked is the files a lab is handed.

# No kernel build, no lock of the test WORKDIR (make lava-jobs runs in a
# workdir of its own): tests/run runs this file beside the files that
# build and boot kernels.
# bats file_tags=beside-builds

load helpers

setup_file() {
	R=$BATS_FILE_TMPDIR/repo
	LW=$BATS_FILE_TMPDIR/work
	export R LW
	copy_repo "$R"
	# foundation.bats made the tree; only a run of this file alone makes
	# it (make tree takes the WORKDIR lock the kernel builds hold).
	[ -d "$TEST_WORKDIR/linux-6.1/.git" ] || mk "$R" tree >/dev/null 2>&1
	# The files that run beside this one move the tree's HEAD: the fake
	# builds and records all name the commit read here, once.
	HEAD_NOW=$(tgit rev-parse HEAD)
	export HEAD_NOW
	mkdir -p "$LW" "$LW.empty"
	ln -s "$TEST_WORKDIR/linux-6.1" "$LW/linux-6.1"
	ln -s "$TEST_WORKDIR/linux-6.1" "$LW.empty/linux-6.1"
	while read -r a c; do
		fake_build "$a" "$c"
	done < <(sed 's/#.*//' "$R/boot/gate-matrix" | awk 'NF == 2')
}

# fake_build ARCH CONFIG: what a gate boot leaves in its build dir (the
# kernel image, the initramfs and the head it booted)...
fake_build() {
	local img b=$LW/check/build-$DEF_KVER-$1-$2
	img=$(sh -c ". '$R/boot/arch/$1.conf' && echo \"\$KERNEL_IMAGE\"")
	mkdir -p "$b/boot"
	printf 'kernel %s %s\n' "$1" "$2" >"$b/boot/${img##*/}"
	printf 'initramfs %s %s\n' "$1" "$2" >"$b/boot/initramfs.cpio.gz"
	echo "$HEAD_NOW" >"$b/boot/head"
	# and the record of its pass (the format of boot.sh --record).
	mkdir -p "$LW/gate/$DEF_KVER"
	printf 'revision %s\narch %s\nconfig %s\nhead %s\nverdict gate %s %s %s: PASS (fake)\n' \
		"$CUR_REV" "$1" "$2" "$HEAD_NOW" "$CUR_REV" "$1" "$2" >"$LW/gate/$DEF_KVER/$CUR_REV-$1-$2.record"
}

lj() {
	make -s -C "$R" WORKDIR="${W:-$LW}" KVER="$DEF_KVER" lava-jobs "$@"
}

@test "lava-jobs: a cell with no gate pass, or a build booted since, is a one-line error" {
	W=$LW.empty run lj
	[ "$status" -ne 0 ]
	[[ "$output" == *"lava-jobs: error: x86_64 lockdep: no gate pass recorded ($LW.empty/gate/$DEF_KVER/$CUR_REV-x86_64-lockdep.record); run 'make gate ARCH=x86_64 CONFIG=lockdep'"* ]]
	[ "$(echo "$output" | grep -c 'error:')" -eq 1 ]
	run lj LAVA_CELLS=arm64
	[ "$status" -ne 0 ]
	[[ "$output" == *"bad cell 'arm64' (ARCH/CONFIG, e.g. arm64/lockdep)"* ]]
	# A build dir booted since the gate's pass, at another head (a
	# fault run of boot/faults.sh): not the gated artifacts.
	cp -a "$LW" "$BATS_TEST_TMPDIR/w"
	echo "$HEAD_NOW+dirty" >"$BATS_TEST_TMPDIR/w/check/build-$DEF_KVER-arm64-lockdep/boot/head"
	W=$BATS_TEST_TMPDIR/w run lj LAVA_CELLS=arm64/lockdep
	[ "$status" -ne 0 ]
	[[ "$output" == *"arm64 lockdep: $BATS_TEST_TMPDIR/w/check/build-$DEF_KVER-arm64-lockdep was booted at "*", not at the gated "*"; run 'make gate ARCH=arm64 CONFIG=lockdep'"* ]]
	rm "$BATS_TEST_TMPDIR/w/gate/$DEF_KVER/$CUR_REV-arm64-lockdep.record"
	W=$BATS_TEST_TMPDIR/w run lj LAVA_CELLS=arm64/lockdep
	[ "$status" -ne 0 ]
	[[ "$output" == *"arm64 lockdep: no gate pass recorded"* ]]
}

@test "lava-jobs: every matrix cell's job and device validate with lava-common, strict" {
	run lj LAVA_URL="https://files.example.org/safer-fput/$CUR_REV/"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "lava-jobs $CUR_REV: PASS (3 jobs, 3 devices valid, lava-common strict, in $LW/lava/$DEF_KVER/$CUR_REV)" ]
	d=$LW/lava/$DEF_KVER/$CUR_REV
	[ "$(grep -c ': valid job$' "$d/validate.log")" -eq 3 ]
	[ "$(grep -c ': valid device$' "$d/validate.log")" -eq 3 ]
	# Each job names its cell's arch, artifacts, URL and checksums.
	grep -qx '  arch: arm64' "$d/arm64-lockdep/job.yaml"
	grep -qx '  cpu: cortex-a57' "$d/arm64-lockdep/job.yaml"
	grep -qx '  arch: x86_64' "$d/x86_64-kasan/job.yaml"
	! grep -q '  cpu:' "$d/x86_64-kasan/job.yaml"
	grep -qx "        url: https://files.example.org/safer-fput/$CUR_REV/arm64-lockdep/Image" "$d/arm64-lockdep/job.yaml"
	grep -qx "        sha256sum: $(sha256sum <"$d/arm64-lockdep/Image" | cut -d' ' -f1)" "$d/arm64-lockdep/job.yaml"
	grep -qx '        image_arg: -kernel {kernel} -append "console=ttyAMA0 panic=-1"' "$d/arm64-lockdep/job.yaml"
	# lava-test-monitor: the gate's timeout of the cell (boot/timeouts), in minutes.
	secs=$(ARCH=arm64 WORKDIR=$LW bash -c ". '$R/boot/lib-boot.sh' && boot_timeout lockdep")
	grep -qx "      minutes: $(((secs + 59) / 60))" "$d/arm64-lockdep/job.yaml"
	grep -qx '          command: qemu-system-aarch64' "$d/arm64-lockdep/device.yaml"
	grep -qx '          - -M virt -cpu cortex-a57' "$d/arm64-lockdep/device.yaml"
	grep -qx '          command: qemu-system-x86_64' "$d/x86_64-lockdep/device.yaml"
	cmp -s "$d/x86_64-kasan/initramfs.cpio.gz" "$LW/check/build-$DEF_KVER-x86_64-kasan/boot/initramfs.cpio.gz"
	! grep -q '@[A-Z_]*@' "$d"/*/job.yaml "$d"/*/device.yaml
}

@test "lava validate: what a lab's schema rejects is rejected, and named" {
	lj LAVA_CELLS=arm64/lockdep
	d=$LW/lava/$DEF_KVER/$CUR_REV/arm64-lockdep
	v=$R/lava/validate
	run "$v" "$d/job.yaml" "$d/device.yaml"
	[ "$status" -eq 0 ]
	# A context variable no device type knows (strict).
	sed 's/^  no_kvm: true$/  kvm: false/' "$d/job.yaml" >"$BATS_TEST_TMPDIR/ctx.yaml"
	# A monitor name LAVA does not allow.
	sed 's/^    - name: kunit$/    - name: kunit suites/' "$d/job.yaml" >"$BATS_TEST_TMPDIR/name.yaml"
	# A fixupdict value that is no LAVA result.
	sed 's/^        not ok: fail$/        not ok: failed/' "$d/job.yaml" >"$BATS_TEST_TMPDIR/fix.yaml"
	# A device without its constants.
	sed '/^constants:/,/^actions:/{/^actions:/!d}' "$d/device.yaml" >"$BATS_TEST_TMPDIR/dev.yaml"
	for f in ctx name fix dev; do
		run "$v" "$BATS_TEST_TMPDIR/$f.yaml"
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == "$BATS_TEST_TMPDIR/$f.yaml: invalid: "* ]]
	done
}

@test "lava-jobs: a URL with & and \\ is written as given" {
	u='https://files.example.org/v1?sig=a&b=\x'
	lj LAVA_CELLS=arm64/lockdep LAVA_URL="$u" LAVA_DIR="$BATS_TEST_TMPDIR/u"
	grep -qxF "        url: $u/arm64-lockdep/Image" "$BATS_TEST_TMPDIR/u/arm64-lockdep/job.yaml"
}

@test "lava-jobs: an invalid template fails the verdict, naming the files" {
	cp -a "$R" "$BATS_TEST_TMPDIR/r2"
	sed -i 's/^visibility: public$/visibility: everyone/' "$BATS_TEST_TMPDIR/r2/lava/job.yaml.in"
	run make -s -C "$BATS_TEST_TMPDIR/r2" WORKDIR="$LW" lava-jobs LAVA_DIR="$BATS_TEST_TMPDIR/out"
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$(verdict lava-jobs)" = "lava-jobs $CUR_REV: FAIL: 3 of 6 files invalid (see $BATS_TEST_TMPDIR/out/validate.log)" ]
}

@test "lava chroot: made once with lava-run and every arch's QEMU in it, then reused" {
	# The test workdir's: gate.bats's lava-run boots in it. Made here, in
	# the lane beside the kernel builds, it is ready when that test runs
	# (debootstrap and apt-get use little CPU and much waiting).
	[ "$(id -u)" -eq 0 ] || skip "debootstrap and chroot need root"
	run env WORKDIR="$TEST_WORKDIR" "$R/lava/chroot.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	dir=${lines[-1]}
	[ "$dir" = "$TEST_WORKDIR/lava/chroot" ]
	[ -f "$dir/.safer-fput-ready" ]
	chroot "$dir" lava-run --help >/dev/null
	for c in "$R"/boot/arch/*.conf; do
		q=$(sh -c ". '$c' && echo \"\$QEMU\"")
		[ -x "$dir/usr/bin/$q" ] || { echo "no $q in $dir"; false; }
	done
	# A second call reuses it: no debootstrap, only its path.
	run env WORKDIR="$TEST_WORKDIR" "$R/lava/chroot.sh"
	[ "$status" -eq 0 ]
	[ "$output" = "$dir" ]
}
