#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh CONFIG - find the first patch of the series at which the gate of
# cell $ARCH CONFIG fails, by booting: `git bisect run` between the b4 cover
# commit (the base tree: good) and the head of b4/safer-fput (bad), in a
# scratch worktree $WORKDIR/bisect/linux-KVER with its own incremental build
# dir $WORKDIR/bisect/build-KVER-ARCH-CONFIG. The branch and $TREE's checkout are
# never touched.
#
# The failure hunted is the head's: its reason is read from the cell's last
# gate of that head (safer-fput.verdict in the cell's gate_build_dir,
# written by boot.sh), or the head is booted first. A commit is bad when it fails
# for the same reason, good when it passes, and skipped (exit 125) when it
# fails otherwise or cannot be built or booted at all. The base is booted
# too: a base that fails the same way has no first bad patch.
#
# --if-failed (make gate, after a failed boot): bisect only from such a
# verdict of the head, else do nothing.
#
# BISECT_STEP replaces the boot (a command run as STEP CONFIG SRC BUILD that
# prints boot.sh's verdict line; the tests use a stub). Ends with one line:
#   bisect vN ARCH CONFIG: first bad: <n>/<N> <subject>: <reason>
#   bisect vN ARCH CONFIG: FAIL: <why there is no answer>
set -euo pipefail
PROG=bisect
. "$(dirname "$0")/lib-boot.sh"

step=${BISECT_STEP:-$BOOT/boot.sh}
# git bisect run calls back from the worktree: a relative step would be lost.
case $step in
/*) ;;
*/*) step=$PWD/$step ;;
esac
export BISECT_STEP=$step
wt=$WORKDIR/bisect/linux-$KVER

# verdict_of CONFIG SRC BUILD: the reason the step fails with, "PASS", or
# nothing when it gave no verdict line.
verdict_of() {
	local v
	v=$("$step" "$@" 2>/dev/null | grep -E '^gate [^ ]+ [^ ]+ [^ ]+: (PASS|FAIL: )' | tail -n 1 || true)
	case $v in
	*": PASS"*) echo PASS ;;
	*": FAIL: "*) reason "${v#*: FAIL: }" ;;
	esac
}

# reason TEXT: a failure reason as two boots of the same bug agree on it:
# without the command that reproduces it, the count of further failures,
# the log it points to (its path names the build dir), CPU and PID numbers,
# line numbers and code offsets (a later patch moves them).
reason() {
	local r=${1%%; reproduce: *}
	printf '%s\n' "${r% (and * more)}" | sed -E \
		-e 's/ \(see [^)]*\)$//' -e 's/CPU: [0-9]+/CPU: N/; s/PID: [0-9]+/PID: N/' \
		-e 's/(\.[ch]):[0-9]+/\1:N/g' -e 's/\+0x[0-9a-f]+\/0x[0-9a-f]+//g'
}

# git bisect run calls us back for each commit it checks out.
if [ "${1:-}" = --step ]; then
	config=$2
	got=$(verdict_of "$config" "$wt" "$(build_dir "$config" "$WORKDIR/bisect")")
	subj=$(git -C "$wt" log -1 --format='%h %s')
	case $got in
	PASS) stage "bisect: $subj: PASS"; exit 0 ;;
	"$BISECT_REASON") stage "bisect: $subj: FAIL: $got"; exit 1 ;;
	'') stage "bisect: $subj: no verdict: skipped"; exit 125 ;;
	*) stage "bisect: $subj: FAIL: $got (another failure: skipped)"; exit 125 ;;
	esac
fi

# --if-failed: after make gate's boot failed; bisect only when it left a
# failing verdict for the head (not when it refused before booting).
if_failed=
if [ "${1:-}" = --if-failed ]; then
	if_failed=1
	shift
fi
workdir_lock
[ $# -eq 1 ] || die "usage: bisect.sh [--if-failed] CONFIG"
config=$1
check_config "$config"
check_rev
require_tree
head=$(tgit rev-parse -q --verify "refs/heads/$BRANCH^{commit}") ||
	die "no branch $BRANCH in $TREE (run 'make series')"
cover=$(cover_commit)
mapfile -t commits < <(tgit rev-list --reverse "$cover..$head")
n=${#commits[@]}
label="bisect $REV $ARCH $config"
fail() {
	printf '%s: FAIL: %s; reproduce: %s\n' "$label" "$*" "$(reproduce bisect "CONFIG=$config")"
	exit 1
}
[ "$n" -ge 1 ] || fail "the series has no patch"
build=$(build_dir "$config" "$WORKDIR/bisect")

last=$(gate_build_dir "$config")/safer-fput.verdict
if [ -f "$last" ] && [ "$(sed -n 's/^head //p' "$last")" = "$head" ] &&
	grep -q ': FAIL: ' "$last" && ! grep -q ': FAIL: .* changed during the gate' "$last"; then
	BISECT_REASON=$(reason "$(sed -n 's/^gate [^:]*: FAIL: //p' "$last")")
	stage "bisect: the head ${head:0:12} fails the gate with: $BISECT_REASON ($last)"
elif [ -n "$if_failed" ]; then
	exit 0
else
	stage "bisect: booting the head ${head:0:12} for its failure"
	scratch_worktree "$wt" "$head"
	BISECT_REASON=$(verdict_of "$config" "$wt" "$build")
	[ -n "$BISECT_REASON" ] || fail "the head gives no verdict: nothing to bisect"
	[ "$BISECT_REASON" != PASS ] || fail "the head passes: nothing to bisect"
fi
export BISECT_REASON

stage "bisect: booting the base (the cover commit ${cover:0:12})"
scratch_worktree "$wt" "$cover"
got=$(verdict_of "$config" "$wt" "$build")
[ "$got" != "$BISECT_REASON" ] || fail "the base fails the same way ($got): no patch of the series is the first bad one"
[ "$got" = PASS ] || stage "bisect: the base fails otherwise ($got): bisecting anyway"

if [ "$n" -eq 1 ]; then
	first=$head
else
	scratch_worktree "$wt" "$head"
	git -C "$wt" bisect reset >/dev/null 2>&1 || true
	git -C "$wt" bisect start "$head" "$cover" >/dev/null
	trap 'git -C "$wt" bisect reset >/dev/null 2>&1 || true' EXIT
	log=$WORKDIR/bisect/bisect-$KVER.log
	if ! git -C "$wt" bisect run "$BOOT/bisect.sh" --step "$config" >"$log" 2>&1; then
		git -C "$wt" bisect reset >/dev/null 2>&1 || true
		fail "git bisect run gave no answer (see $log)"
	fi
	grep '^\[' "$log" >&2 || true
	first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$log")
	git -C "$wt" bisect reset >/dev/null 2>&1 || true
	[ -n "$first" ] || fail "no first bad commit: $(grep -m1 'only skipped commits' "$log" || tail -n 1 "$log")"
fi
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	[ "$c" = "$first" ] && break
done
printf '%s: first bad: %d/%d %s: %s\n' "$label" "$i" "$n" "$(tgit log -1 --format=%s "$first")" "$BISECT_REASON"
