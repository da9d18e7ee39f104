#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kconfig.sh - write BUILD/.config for CONFIG on $ARCH: tinyconfig +
# boot/configs/base.config + the options of boot/configs/series.config the
# tree defines + boot/arch/$ARCH.config + CONFIG's fragment,
# then olddefconfig, then fail if Kconfig dropped any requested
# option (merge_config.sh only warns about those).
#
# usage: kconfig.sh SRC BUILD CONFIG
set -euo pipefail
PROG=kconfig
. "$(dirname "$0")/lib-boot.sh"

[ $# -eq 3 ] || die "usage: kconfig.sh SRC BUILD CONFIG"
src=$1 build=$2 config=$3
check_config "$config"
[ -f "$src/Makefile" ] || die "no kernel source tree at $src"
mkdir -p "$build"

# The .config of a clean tree is made from its Kconfig files, the scripts
# Kconfig runs, the fragments and the toolchain: while none of them and
# this script changed since the last run in BUILD, and nothing rewrote the
# .config, the one there is what this run would write (20 s on 7.3; the
# per-commit check configures every commit, and few change a Kconfig file).
# A tree with uncommitted changes to any of them is configured every time;
# other uncommitted changes (a conversion make cocci compiles) do not count.
key=
stamp=$build/.safer-fput-kconfig
keyed=(':(glob)**/Kconfig*' Makefile "arch/$SRCARCH/Makefile" scripts)
if git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1 &&
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no -- "${keyed[@]}")" ]; then
	key=$({
		git -C "$src" ls-files -s -- "${keyed[@]}"
		echo "$config $ARCH ${CROSS_COMPILE:-}"
		config_fragments "$config" | xargs cat
		cat "$0" "$BOOT/lib-boot.sh" "$BOOT/arch/$ARCH.conf"
		for t in "${CROSS_COMPILE:-}gcc" "${CROSS_COMPILE:-}ld" pahole rustc bindgen; do
			"$t" --version 2>/dev/null | head -n 1 || :
		done
	} | sha256sum | cut -d' ' -f1)
fi
if [ -n "$key" ] && [ -f "$build/.config" ] &&
	[ "$(cat "$stamp" 2>/dev/null)" = "$key $(sha256sum <"$build/.config" | cut -d' ' -f1)" ]; then
	exit 0
fi
rm -f "$stamp"

mapfile -t frags < <(config_fragments "$config")
# series.config holds options the series itself adds: request only those
# the tree's Kconfig defines (the base, or a bisect step before the patch
# that adds one, has not got it).
for i in "${!frags[@]}"; do
	[ "${frags[i]##*/}" = series.config ] || continue
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} ;;
		*) continue ;;
		esac
		grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$src" &&
			printf '%s\n' "$line"
	done <"${frags[i]}" >"$build/series.config"
	frags[i]=$build/series.config
done
kconf() {
	locked kmake "$src" "$build" -s "$@"
}

kconf tinyconfig >/dev/null
# merge_config.sh -m: textual merge only; the olddefconfig after it lets
# KUNIT_ALL_TESTS switch on every test whose dependencies are met.
"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
	"${frags[@]}" >"$build/merge_config.log" 2>&1 ||
	die "merge_config.sh failed, see $build/merge_config.log"
# The fragments override tinyconfig's choices on purpose: olddefconfig's
# "override: ... changes choice state" notes go to its log, not the screen.
kconf olddefconfig >"$build/olddefconfig.log" 2>&1 ||
	die "olddefconfig failed, see $build/olddefconfig.log"

# Every CONFIG_X=v / "# CONFIG_X is not set" line of the fragments must be
# in the final .config exactly ("=n" means "is not set").
bad=
while IFS= read -r want; do
	sym=${want%%=*}
	case $want in
	*=n) line="# $sym is not set"
		grep -qx "$line" "$build/.config" ||
			! grep -q "^$sym=" "$build/.config" || bad="$bad $sym" ;;
	*) grep -qxF "$want" "$build/.config" || bad="$bad $sym" ;;
	esac
done < <(cat "${frags[@]}" | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p' |
	# A later fragment overrides an earlier one: check the last value only.
	awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = n++ } END { for (k in o) print o[k] "\t" v[k] }' |
	sort -n | cut -f2-)
[ -z "$bad" ] ||
	die "Kconfig dropped requested option(s):$bad (see $build/.config)"
[ -z "$key" ] || printf '%s %s\n' "$key" "$(sha256sum <"$build/.config" | cut -d' ' -f1)" >"$stamp"
