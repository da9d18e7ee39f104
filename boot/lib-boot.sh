# SPDX-License-Identifier: GPL-2.0
# lib-boot.sh - settings shared by the boot/ scripts; sourced, never run.
# shellcheck shell=bash

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
BOOT=$TOP/boot
CONFIGS="base lockdep kasan"

# The architecture: boot/arch/$ARCH.conf says how to build and boot it
# (LINUX_ARCH, SRCARCH, CROSS_COMPILE, KERNEL_TARGET, KERNEL_IMAGE, DEB_ARCH,
# GUEST_CC, CROSS_PACKAGES, QEMU, QEMU_PACKAGE, QEMU_PARAMS, CONSOLE, and
# for bench/ and lava/ BENCH_APPEND, LAVA_ARCH, LAVA_CPU, LAVA_MACHINE);
# boot/arch/$ARCH.config is its part
# of every kernel config. Adding an arch is adding those two files.
: "${ARCH:=x86_64}"
list_arches() {
	local f out=
	for f in "$BOOT"/arch/*.conf; do
		f=${f##*/}
		out="$out ${f%.conf}"
	done
	printf '%s' "${out# }"
}
load_arch() { # ARCH
	[ -f "$BOOT/arch/$1.conf" ] ||
		die "unknown ARCH '$1' (arches: $(list_arches))"
	QEMU_PARAMS='' BENCH_APPEND='' LAVA_ARCH='' LAVA_CPU='' LAVA_MACHINE=''
	# shellcheck source=arch/x86_64.conf
	. "$BOOT/arch/$1.conf"
	ARCH=$1
}
load_arch "$ARCH"
export ARCH

# own_files: of the tree paths on stdin, those $ARCH builds: everything
# outside arch/, and arch/$SRCARCH/ (used by checks/build.sh and sparse.sh).
own_files() {
	awk -v mine="arch/$SRCARCH/" '$0 !~ /^arch\// || index($0, mine) == 1'
}

# kmake SRC BUILD ARGS...: the kernel's make for $ARCH, out of tree, ccache.
kmake() {
	local src=$1 build=$2
	shift 2
	make -C "$src" O="$build" ARCH="$LINUX_ARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" CC="ccache ${CROSS_COMPILE}gcc" "$@"
}

# The static busybox of the guest: busybox-static of DEB_ARCH, installed
# when DEB_ARCH is the machine's own, else unpacked by `make deps`.
busybox_path() {
	if [ "$DEB_ARCH" = "$(dpkg --print-architecture)" ]; then
		printf '/bin/busybox'
	else
		printf '%s/deb/busybox-static-%s/bin/busybox' "$WORKDIR" "$DEB_ARCH"
	fi
}

# The gate matrix: "ARCH CONFIG" cells a revision must pass (boot/gate-matrix).
matrix_cells() {
	local bad
	bad=$(sed 's/#.*//' "$BOOT/gate-matrix" | awk 'NF && NF != 2 { print NR; exit }')
	[ -z "$bad" ] || die "boot/gate-matrix line $bad: not \"ARCH CONFIG\""
	sed 's/#.*//' "$BOOT/gate-matrix" | awk 'NF == 2 { print $1, $2 }'
}
export KBUILD_LOCK=/tmp/safer-fput-kbuild.lock
# Same layout below WORKDIR for $TREE and the other worktrees (check/,
# sparse/ and bisect/: linux-KVER beside build-KVER-ARCH-CONFIG): with
# CCACHE_BASEDIR the compiler sees the same relative paths, so their builds
# share the cache.
export CCACHE_BASEDIR=$WORKDIR

# locked CMD...: run CMD holding the machine-wide kernel build lock (one
# kernel build at a time on this machine); nested calls do not re-queue.
# CMD may be a shell function (kmake): the lock is taken on a file
# descriptor of a subshell, not by flock running CMD.
locked() {
	if [ -n "${SAFER_FPUT_KBUILD_LOCKED:-}" ]; then
		"$@"
	else
		(
			flock 9
			# shellcheck disable=SC2030 # for this subshell's commands only
			export SAFER_FPUT_KBUILD_LOCKED=1
			"$@"
		) 9>>"$KBUILD_LOCK"
	fi
}

# hold_kbuild_lock SCRIPT ARGS...: run the calling script again as SCRIPT
# ARGS under the machine-wide build lock, held once for all it builds
# (kconfig and make alike), saying why nothing happens while another build
# has the machine; nothing when the lock is held already. -o: the lock is
# flock's, not inherited by what the build leaves running.
hold_kbuild_lock() {
	# shellcheck disable=SC2031 # set by a caller holding the lock, if any
	[ -z "${SAFER_FPUT_KBUILD_LOCKED:-}" ] || return 0
	flock -n "$KBUILD_LOCK" true ||
		note "waiting for the kernel build running on this machine ($KBUILD_LOCK)"
	SAFER_FPUT_KBUILD_LOCKED=1 exec flock -o "$KBUILD_LOCK" "$@"
}

check_config() {
	case " $CONFIGS " in
	*" $1 "*) return 0 ;;
	esac
	die "unknown CONFIG '$1' (configs: $CONFIGS)"
}

# Fragments of a config, in merge order: what every tree gets, then what
# one base needs on every arch and on $ARCH (boot/bases/KVER/all.config,
# boot/bases/KVER/ARCH.config, each optional: options a base's series
# touches, or that another base's Kconfig spells differently), then the
# config's own.
config_fragments() {
	local f
	printf '%s\n' "$BOOT/configs/base.config" "$BOOT/configs/series.config" \
		"$BOOT/arch/$ARCH.config"
	for f in "$BOOT/bases/$KVER/all.config" "$BOOT/bases/$KVER/$ARCH.config"; do
		[ ! -f "$f" ] || printf '%s\n' "$f"
	done
	[ "$1" = base ] || printf '%s\n' "$BOOT/configs/$1.config"
}

# stage NAME: one progress line per stage, with the seconds since the last.
stage_t0=$SECONDS
stage() {
	printf '[%4ds] %s\n' "$((SECONDS - stage_t0))" "$*" >&2
}

# The guest tests of base $KVER: boot/tests/*.c, then the in-tree
# selftests boot/selftests lists for it ("NAME PATH" lines).
base_selftests() {
	sed 's/#.*//' "$BOOT/selftests" |
		awk -v k="$KVER" 'NF == 3 && ($2 == "all" || index("," $2 ",", "," k ",")) { print $1, $3 }'
}
guest_tests() {
	local c
	for c in "$BOOT"/tests/*.c; do
		basename "$c" .c
	done
	base_selftests | awk '{ print $1 }'
}
# guest_selected NAME: SELFTESTS (a comma list) is empty or names NAME.
guest_selected() {
	[ -z "${SELFTESTS:-}" ] || [[ ",$SELFTESTS," == *",$1,"* ]]
}
# check_selftests: every name in SELFTESTS is a guest test of this base.
check_selftests() {
	local t all
	all=$(guest_tests)
	for t in ${SELFTESTS//,/ }; do
		[[ $'\n'$all$'\n' == *$'\n'"$t"$'\n'* ]] ||
			die "SELFTESTS: no guest test '$t' on $KVER (have: $(printf '%s' "$all" | tr '\n' ' '))"
	done
}

# choose_accel KERNEL INITRD: how QEMU runs this boot: KVM when it works,
# else TCG, as virtme-ng and kunit.py do. Sets ACCEL_USED (kvm or tcg) and
# ACCEL_WHY. ACCEL=kvm or ACCEL=tcg forces one (kvm: an error if it does
# not work). KVM needs a guest of the host's arch and a usable
# $KVM_DEVICE (default /dev/kvm); then a probe boots KERNEL and INITRD
# with busybox as init, no KUnit suite and no test, which must reach init
# within KVM_PROBE_TIMEOUT seconds (30). On some machines /dev/kvm is there
# and guests never boot (docs/notes.md): the probe is what decides. Its
# result is kept per QEMU version, host kernel, arch and device in
# $WORKDIR/accel/.
# shellcheck disable=SC2034 # ACCEL_USED, ACCEL_WHY: for the caller
choose_accel() {
	local kernel=$1 initrd=$2 dev=${KVM_DEVICE:-/dev/kvm} host why key cache log rc
	case ${ACCEL:-auto} in
	tcg)
		ACCEL_USED=tcg ACCEL_WHY="ACCEL=tcg"
		return
		;;
	kvm | auto) ;;
	*) die "unknown ACCEL '$ACCEL' (auto, kvm, tcg)" ;;
	esac
	host=$(dpkg --print-architecture)
	if [ "$DEB_ARCH" != "$host" ]; then
		why="no KVM for an $ARCH guest on an $host host"
	elif [ ! -e "$dev" ]; then
		why="no $dev"
	elif [ ! -r "$dev" ] || [ ! -w "$dev" ]; then
		why="$dev is not read-writable"
	else
		key=$({ "$QEMU" --version | head -n 1; uname -rv; echo "$ARCH $dev"; } | sha256sum | cut -c1-16)
		cache=$WORKDIR/accel/$ARCH-$key
		if [ ! -s "$cache" ]; then
			mkdir -p "${cache%/*}"
			log=$cache.console
			note "probing KVM: $QEMU -accel kvm, up to ${KVM_PROBE_TIMEOUT:-30} s (once; kept in $cache)"
			# The gate's own QEMU command (qemu-run.sh), with KVM; its
			# stderr has QEMU's reason when KVM cannot even start.
			rc=0
			QEMU_ACCEL=kvm "$BOOT/qemu-run.sh" "$kernel" "$initrd" "$log" "${KVM_PROBE_TIMEOUT:-30}" \
				"rdinit=/bin/busybox kunit.filter_glob=safer-fput-kvm-probe" 2>"$log.qemu" || rc=$?
			if grep -q 'Run /bin/busybox as init process' "$log" 2>/dev/null; then
				echo kvm >"$cache"
			elif [ "$rc" = 124 ]; then
				echo "tcg KVM probe: no init within ${KVM_PROBE_TIMEOUT:-30} s" >"$cache"
			else
				echo "tcg KVM probe: $(grep -m1 . "$log.qemu" || echo "no init reached")" >"$cache"
			fi
		fi
		read -r ACCEL_USED why <"$cache"
		if [ "$ACCEL_USED" = kvm ]; then
			ACCEL_WHY="KVM probe passed"
			return
		fi
	fi
	[ "${ACCEL:-auto}" != kvm ] || die "ACCEL=kvm: $why"
	ACCEL_USED=tcg ACCEL_WHY=$why
}

# boot_timeout CONFIG: QEMU's timeout for a boot of CONFIG on $ARCH, in
# seconds (boot/timeouts; BOOT_TIMEOUT overrides it).
boot_timeout() {
	local s
	if [ -n "${BOOT_TIMEOUT:-}" ]; then
		printf '%s\n' "$BOOT_TIMEOUT"
		return
	fi
	s=$(sed 's/#.*//' "$BOOT/timeouts" | awk -v c="$1" -v a="$ARCH" \
		'$1 == c && $2 == a { s = $3 } $1 == c && $2 == "*" { d = $3 }
		END { print (s ? s : d) }')
	[ -n "$s" ] || die "boot/timeouts has no timeout for $1 on $ARCH"
	printf '%s\n' "$s"
}

# Build directory of CONFIG for $ARCH and base $KVER below DIR (default
# $WORKDIR): two bases never build in one directory.
build_dir() { # CONFIG [DIR]
	printf '%s/build-%s-%s-%s' "${2:-$WORKDIR}" "$KVER" "$ARCH" "$1"
}

# The committed revision is built and booted in a detached worktree of
# $TREE, never in $TREE's own checkout: checks/build.sh builds every commit
# there, `make gate` boots the head there (with the per-commit build's
# objects, so the head is not compiled twice), boot/faults.sh applies a
# fault there, lava/ hands a lab what that boot built. One incremental build
# dir per cell; an edit to $TREE during a gate is not what the gate boots.
# `make boot` alone builds $TREE as it is, in build_dir CONFIG.
# shellcheck disable=SC2034 # for the scripts that source this
GATE_WT=$WORKDIR/check/linux-$KVER
gate_build_dir() { # CONFIG
	build_dir "$1" "$WORKDIR/check"
}

# gate_inputs CONFIG: a hash of what decides the gate of cell $ARCH CONFIG
# besides the kernel tree: its kconfig fragments and arch file, the expected
# suites and known issues, the guest tests and the scripts (not the
# timeouts: a boot that passed in time passed). A gate record
# carries it; gate-check finds a record stale once any of them changed.
gate_inputs() {
	(cd "$BOOT" && find . -type f ! -name README.md ! -name gate-check ! -name gate-matrix ! -name timeouts \
		! -name '.*' ! -name '*~' ! -name '*.orig' ! -name '*.rej' \
		! \( -path './arch/*' ! -name "$ARCH.*" \) \
		! \( -path './bases/*' ! -path "./bases/$KVER/all.config" ! -path "./bases/$KVER/$ARCH.config" \) \
		! \( -path './configs/*' ! -name base.config ! -name series.config ! -name "$1.config" \) -print |
		LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -d' ' -f1)
}

# The gate record of cell $ARCH CONFIG of revision $REV of base $KVER.
record_file() { # CONFIG
	printf '%s/gate/%s/%s-%s-%s.record' "$WORKDIR" "$KVER" "$REV" "$ARCH" "$1"
}
