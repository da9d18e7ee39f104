#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh - every commit of the revision builds on its own, warning-free.
#
# Builds each commit in turn, for each of CHECK_CONFIGS (boot/configs
# names; KUNIT_ALL_TESTS is on, so the tests build too), in a worktree of its
# own with one incremental build dir per config. Any compiler warning in a
# commit's build fails it: tinyconfig-based builds of the base are clean.
set -euo pipefail
PROG=build
# shellcheck source=lib-checks.sh
. "$(dirname "$0")/lib-checks.sh"

check_rev
require_tree
configs=${CHECK_CONFIGS:-lockdep}
for config in $configs; do
	check_config "$config"
done
mapfile -t commits < <(check_commits)
[ "${#commits[@]}" -gt 0 ] || die "no commits to check in $(check_range)"

failed=0 bad=
for config in $configs; do
	build=$WORKDIR/check/build-$config
	i=0
	for c in "${commits[@]}"; do
		i=$((i + 1))
		subj=$(tgit log -1 --format=%s "$c")
		stage "build $config [$i/${#commits[@]}] $subj"
		check_worktree "$c"
		if ! "$BOOT/kbuild.sh" "$CHECK_WT" "$build" "$config" 2>"$build.err"; then
			failed=$((failed + 1))
			bad="$bad${bad:+, }'$subj' ($config: does not build)"
			sed 's/^/       /' "$build.err"
			continue
		fi
		if grep -q 'warning:' "$build/build.log"; then
			failed=$((failed + 1))
			bad="$bad${bad:+, }'$subj' ($config: warnings)"
			grep 'warning:' "$build/build.log" | sed 's/^/       /'
		fi
	done
done
if [ "$failed" -eq 0 ]; then
	verdict build 0 "${#commits[@]} commits x ${configs// /+}, each builds warning-free"
else
	verdict build "$failed" "$bad"
fi
