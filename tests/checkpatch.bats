#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# checkpatch.bats - make check-checkpatch checks each patch as it is mailed,
# outside any git tree, where checkpatch's commit-description check runs:
# in our kernel trees (no upstream history) it is skipped without a word.
#
# The fixtures (tests/fixtures/checks/commit-*/) are one patch, whose
# message names upstream's c82199061009 bare in one and as
# `commit c82199061009 ("<title>")` in the other.

# No kernel build, no lock of the test WORKDIR: the check runs in a WORKDIR
# of its own, on a small tree made of the base's checkpatch, the files it
# reads and the file the fixtures change. tests/run runs this file beside
# the files that build and boot kernels.
# bats file_tags=beside-builds

load helpers

# What of the base the check reads, what checkpatch takes for the top of a
# kernel tree (with the directories below), and what the fixtures change.
TREE_FILES=(scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	scripts/spdxcheck.py scripts/get_maintainer.pl MAINTAINERS LICENSES
	COPYING CREDITS Kbuild Makefile README kernel/task_work.c)
TREE_DIRS=(Documentation arch include drivers fs init ipc lib)

setup_file() {
	W=$BATS_FILE_TMPDIR/workdir
	T=$W/linux-$DEF_KVER
	export W T
	# The base tag the scripts look for: the installed package's.
	BASE=$(cd "$TOP" && KVER=$DEF_KVER WORKDIR=$W bash -c '. scripts/lib.sh && base_tag')
	export BASE
	mkdir -p "$T"
	if git -C "$TEST_WORKDIR/linux-$DEF_KVER" rev-parse -q --verify "refs/tags/$BASE^{commit}" >/dev/null 2>&1; then
		git -C "$TEST_WORKDIR/linux-$DEF_KVER" archive "$BASE" -- "${TREE_FILES[@]}" | tar -x -C "$T"
	else
		# No test tree (this file run alone, before foundation.bats made
		# one): the same files from the package's tarball.
		tar -xJf "/usr/src/linux-source-$DEF_KVER.tar.xz" -C "$T" --strip-components=1 \
			--wildcards "${TREE_FILES[@]/#/linux-source-*/}"
	fi
	(cd "$T" && mkdir -p "${TREE_DIRS[@]}")
	git -C "$T" init -q
	git -C "$T" add -f -A
	git -C "$T" -c user.name=tests -c user.email=tests@localhost commit -q -m "base: the files checkpatch.sh reads"
	git -C "$T" tag "$BASE"
}

# fixture NAME: branch NAME of the small tree, tests/fixtures/checks/NAME/*.patch
# applied on the base; prints its head.
fixture() {
	git -C "$T" checkout -q -B "$1" "$BASE"
	git -C "$T" -c user.name=tests -c user.email=tests@localhost \
		am -q "$BATS_TEST_DIRNAME/fixtures/checks/$1"/*.patch >/dev/null
	git -C "$T" rev-parse HEAD
}

check_checkpatch() { # CHECK_RANGE
	make -s -C "$TOP" WORKDIR="$W" KVER="$DEF_KVER" REV="$CUR_REV" check-checkpatch CHECK_RANGE="$1"
}

@test "checkpatch: a commit id named bare in a message fails, as on the mailed patch" {
	head=$(fixture commit-bare)
	run check_checkpatch "$BASE..$head"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"checkpatch --no-tree on the mailed patch, outside git:"*"ERROR: Please use git commit description style 'commit <12+ chars of sha1> (\"<title line>\")'"*"c82199061009 dropped the reversal"* ]]
	# checkpatch in the tree passes it: it finds no c82199061009 there
	# and skips the check.
	[[ "$output" != *"checkpatch -g in the tree:"* ]]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: FAIL: 1 of 1 patches: 'task_work: say which work runs first'" ]
}

@test "checkpatch: the same patch naming commit c82199061009 (\"title\") passes" {
	head=$(fixture commit-described)
	run check_checkpatch "$BASE..$head"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: PASS (1 patches, --strict clean)" ]
}

@test "checkpatch: a GIT_DIR in the environment does not make the mailed patch's run skip the check" {
	head=$(fixture commit-bare)
	# Not the result the first test kept: run checkpatch again.
	rm -rf "$W/results"
	GIT_DIR=$T/.git run check_checkpatch "$BASE..$head"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"checkpatch --no-tree on the mailed patch, outside git:"*"ERROR: Please use git commit description style"* ]]
	[ "$(verdict check)" = "check-checkpatch $CUR_REV: FAIL: 1 of 1 patches: 'task_work: say which work runs first'" ]
}
