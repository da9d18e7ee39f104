# SPDX-License-Identifier: GPL-2.0
# lib-boot.sh - settings shared by the boot/ scripts; sourced, never run.
# shellcheck shell=bash

# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
BOOT=$TOP/boot
CONFIGS="base lockdep kasan"
export KBUILD_LOCK=/tmp/safer-fput-kbuild.lock
# Same layout below WORKDIR for the gated tree and the fault worktree
# (faults/linux-KVER + faults/build-CONFIG): with CCACHE_BASEDIR the compiler
# sees the same relative paths, so the fault builds hit the cache.
export CCACHE_BASEDIR=$WORKDIR

# locked CMD...: run CMD holding the machine-wide kernel build lock (one
# kernel build at a time on this machine); nested calls do not re-queue.
locked() {
	if [ -n "${SAFER_FPUT_KBUILD_LOCKED:-}" ]; then
		"$@"
	else
		SAFER_FPUT_KBUILD_LOCKED=1 flock "$KBUILD_LOCK" "$@"
	fi
}

check_config() {
	case " $CONFIGS " in
	*" $1 "*) return 0 ;;
	esac
	die "unknown CONFIG '$1' (configs: $CONFIGS)"
}

# Fragments of a config, in merge order.
config_fragments() {
	printf '%s\n' "$BOOT/configs/base.config"
	[ "$1" = base ] || printf '%s\n' "$BOOT/configs/$1.config"
}

# stage NAME: one progress line per stage, with the seconds since the last.
stage_t0=$SECONDS
stage() {
	printf '[%4ds] %s\n' "$((SECONDS - stage_t0))" "$*" >&2
}

# QEMU timeout per config, in seconds: several times the measured boot
# (lockdep: 28 s under TCG on a busy 2-core machine); a boot still
# running then is a hang. BOOT_TIMEOUT overrides it.
boot_timeout() {
	case $1 in
	base) echo "${BOOT_TIMEOUT:-90}" ;;
	lockdep) echo "${BOOT_TIMEOUT:-150}" ;;
	kasan) echo "${BOOT_TIMEOUT:-300}" ;;
	esac
}

record_file() { # CONFIG
	printf '%s/gate/%s-%s.record' "$WORKDIR" "$REV" "$1"
}
