#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# foundation.bats - make tree/series/export/revision: round trips and refusals.
#
# Runs in a copy of this repo against $TEST_WORKDIR, a workdir of its own.

load helpers

setup_file() {
	R=$BATS_FILE_TMPDIR/repo
	export R
	copy_repo "$R"
	# A cold tree: the first `make tree` of this run extracts the tarball.
	rm -rf "$TEST_WORKDIR/linux-6.1"
	mkdir -p "$TEST_WORKDIR"
	start=$(date +%s)
	mk "$R" tree >"$BATS_FILE_TMPDIR/tree.log" 2>&1
	echo "$(($(date +%s) - start))" >"$BATS_FILE_TMPDIR/tree.cold"
}

teardown() {
	restore_branch
	# rebase-base's fake bases: another base/ tag would be the newest.
	tgit tag -d base/linux-source-6.1.999-1 base/linux-source-6.1.998-1 base/linux-source-6.1.997-1 >/dev/null 2>&1 || true
	tgit for-each-ref --format='%(refname)' refs/heads/pre-rebase | xargs -r -n1 git -C "$TEST_WORKDIR/linux-6.1" update-ref -d
}

@test "make tree: a pristine, tagged git tree outside the repo" {
	tag=$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")
	run tgit rev-parse -q --verify "refs/tags/$tag^{commit}"
	[ "$status" -eq 0 ]
	# The Debian .gitignore trap: the import must hold the whole tree.
	[ "$(tgit ls-files | wc -l)" -gt 70000 ]
	tgit cat-file -e "$tag:fs/file_table.c"
	[ -z "$(tgit status --porcelain)" ]
	echo "# cold make tree: $(cat "$BATS_FILE_TMPDIR/tree.cold") s" >&3
}

@test "make series: branch b4/safer-fput = cover commit + series/ of the current revision" {
	run mk "$R" series
	[ "$status" -eq 0 ]
	n=$(find "$R/$SER/$CUR_REV" -name '*.patch' | wc -l)
	tag=$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")
	[ "$(tgit rev-list --count "$tag..b4/safer-fput")" -eq $((n + 1)) ]
	[ "$(tgit symbolic-ref --short HEAD)" = b4/safer-fput ]
	run bash -c "cd '$TEST_WORKDIR/linux-6.1' && b4 prep --show-info"
	[ "$status" -eq 0 ]
	[[ "$output" == *"revision: ${CUR_REV#v}"* ]]
	[[ "$output" == *"branch: b4/safer-fput"* ]]
}

@test "make tree series: a second run reuses everything in under 30 s" {
	start=$(date +%s%N)
	run mk "$R" tree series
	elapsed=$((($(date +%s%N) - start) / 1000000))
	[ "$status" -eq 0 ]
	[[ "$output" == *"reusing"* ]]
	[[ "$output" == *"nothing to do"* ]]
	echo "# warm make tree series: $elapsed ms" >&3
	[ "$elapsed" -lt 30000 ]
}

@test "make tree: a new package version is imported beside the series, moving no branch" {
	# A Debian update of linux-source-6.1, as make tree sees it: the tree
	# has no tag for the installed version. Drop the tag and import again.
	tag=$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")
	base=$(tgit rev-parse "$tag^{commit}")
	head=$(tgit rev-parse b4/safer-fput)
	tgit tag -d "$tag" >/dev/null
	run mk "$R" tree
	echo "$output"
	[ "$status" -eq 0 ]
	# A root commit with the same id as on any machine, not a commit on
	# top of the series; the series branch stays where it was.
	[ "$(tgit rev-parse "$tag^{commit}")" = "$base" ]
	[ "$(tgit rev-parse b4/safer-fput)" = "$head" ]
	[ -z "$(tgit status --porcelain)" ]
	run mk "$R" series
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "make series export: an unchanged branch round-trips byte for byte" {
	before=$(repo_state "$R")
	run mk "$R" series export
	[ "$status" -eq 0 ]
	[ "$(repo_state "$R")" = "$before" ]
	# A full rebuild of a deleted branch, exported again, must also give
	# identical files.
	save_branch
	tgit checkout -q --detach
	tgit branch -q -D b4/safer-fput
	mk "$R" series export
	[ "$(repo_state "$R")" = "$before" ]
}

@test "make export: hand-made commits on the branch are written to series/" {
	cp -a "$R" "$BATS_TEST_TMPDIR/r2"
	r2=$BATS_TEST_TMPDIR/r2
	save_branch
	echo "/* test */" >>"$TEST_WORKDIR/linux-6.1/fs/file_table.c"
	tgit commit -q -a -s -m "fs: test commit"
	run mk "$r2" export
	[ "$status" -eq 0 ]
	ls "$r2/$SER/$CUR_REV"/*-fs-test-commit.patch
	# The same branch now round-trips from r2, and not from the stale R.
	run mk "$r2" series
	[ "$status" -eq 0 ]
	[[ "$output" == *"nothing to do"* ]]
}

@test "make series: an edited branch exports itself; refused if series/ was edited too" {
	cp -a "$R" "$BATS_TEST_TMPDIR/r2"
	r2=$BATS_TEST_TMPDIR/r2
	save_branch
	# Branch first: amend the last patch, as a b4 user would, and run
	# make series (make gate's first step): series/ follows the branch.
	echo "/* amended */" >>"$TEST_WORKDIR/linux-6.1/fs/file_table.c"
	tgit commit -q -a --amend --no-edit
	head=$(tgit rev-parse HEAD)
	run mk "$r2" series
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"edited since it was last in sync"*"exporting it"* ]]
	[ "$(tgit rev-parse b4/safer-fput)" = "$head" ]
	[ "$(tgit rev-parse refs/safer-fput/synced)" = "$head" ]
	grep -q -F '+/* amended */' "$r2/$SER/$CUR_REV"/*.patch
	# What series/ held before stays reachable, as after a rebuild.
	[ "$(tgit rev-parse refs/safer-fput/previous)" = "$(cat "$BATS_TEST_TMPDIR/saved-head")" ]
	run mk "$r2" series
	[[ "$output" == *"nothing to do"* ]]
	# Both sides edited: the branch again, and series/ by hand (a
	# message edit). Neither is overwritten.
	echo "/* again */" >>"$TEST_WORKDIR/linux-6.1/fs/file_table.c"
	tgit commit -q -a --amend --no-edit
	head=$(tgit rev-parse HEAD)
	p=$(ls "$r2/$SER/$CUR_REV"/*.patch | tail -n 1)
	sed -i '0,/^Subject: /s/^Subject: .*/&, edited/' "$p"
	sum=$(sha256sum "$p")
	run mk "$r2" series
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"were both edited since they were last in sync"* ]]
	[ "$(echo "$output" | grep -c error)" -eq 1 ]
	[ "$(tgit rev-parse HEAD)" = "$head" ]
	[ "$(sha256sum "$p")" = "$sum" ]
	# A branch at another revision than REV is not exported into REV.
	run mk "$r2" series REV=v1
	[ "$status" -ne 0 ]
	[[ "$output" == *"holds work at $CUR_REV not exported to series/"* ]]
	[ "$(tgit rev-parse HEAD)" = "$head" ]
	[ "$(sha256sum "$p")" = "$sum" ]
}

@test "make series: refuses a rebase stopped half way and commits on a detached HEAD" {
	save_branch
	tgit checkout -q b4/safer-fput
	# rebase -i stopped at "edit": the tree is clean, the branch has not
	# moved yet.
	GIT_SEQUENCE_EDITOR="sed -i '1s/^pick/edit/'" tgit rebase -q -i HEAD~2 >/dev/null 2>&1
	run mk "$R" series
	[ "$status" -ne 0 ]
	[[ "$output" == *"a rebase or am is in progress in $TEST_WORKDIR/linux-6.1; finish or abort it first"* ]]
	tgit rebase --abort
	# A commit on a detached HEAD that no branch holds.
	tgit checkout -q --detach
	tgit -c user.name=t -c user.email=t@localhost commit -q --allow-empty -m "test: detached work"
	head=$(tgit rev-parse HEAD)
	run mk "$R" series
	[ "$status" -ne 0 ]
	[[ "$output" == *"HEAD of $TEST_WORKDIR/linux-6.1 is detached at ${head:0:12}, which no branch or tag holds"* ]]
	[ "$(tgit rev-parse HEAD)" = "$head" ]
	# Detached at the base tag (as make tree leaves it) is fine.
	tgit checkout -q --detach "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")"
	run mk "$R" series
	[ "$status" -eq 0 ]
}

@test "make tree, make series: refuse a dirty kernel tree and touch nothing, ignore what the kernel ignores" {
	f=$TEST_WORKDIR/linux-6.1/fs/open.c
	echo "/* dirty */" >>"$f"
	sum=$(sha256sum "$f")
	head=$(tgit rev-parse HEAD)
	for t in tree series; do
		run mk "$R" "$t"
		[ "$status" -ne 0 ]
		[[ "$output" == *"uncommitted changes"* ]]
	done
	[ "$(sha256sum "$f")" = "$sum" ]
	[ "$(tgit rev-parse HEAD)" = "$head" ]
	tgit checkout -q -- fs/open.c
	# An untracked new file counts too, although .gitignore hides it.
	touch "$TEST_WORKDIR/linux-6.1/fs/new_file.c"
	run mk "$R" series
	[ "$status" -ne 0 ]
	[[ "$output" == *"uncommitted changes"* ]]
	[ -f "$TEST_WORKDIR/linux-6.1/fs/new_file.c" ]
	rm "$TEST_WORKDIR/linux-6.1/fs/new_file.c"
	# What the kernel's own .gitignore ignores does not: a developer's
	# tags, cscope.out and kunit.py's .kunit/ build directory.
	k=$TEST_WORKDIR/linux-6.1
	touch "$k/tags" "$k/cscope.out"
	mkdir -p "$k/.kunit"
	touch "$k/.kunit/.config"
	run mk "$R" series
	rm -rf "$k/tags" "$k/cscope.out" "$k/.kunit"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "two makes in one WORKDIR: the second waits for the first" {
	flock "$TEST_WORKDIR/.lock" sleep 3 &
	holder=$!
	# Until the holder has it (a loaded machine may take a while).
	for _ in $(seq 100); do
		flock -n "$TEST_WORKDIR/.lock" true || break
		sleep 0.05
	done
	start=$SECONDS
	run mk "$R" series
	wait "$holder"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"series: waiting for another make in $TEST_WORKDIR ($TEST_WORKDIR/.lock)"* ]]
	[ $((SECONDS - start)) -ge 2 ]
}

@test "make series: a patch that does not apply is named, git am aborted, branch kept" {
	cp -a "$R" "$BATS_TEST_TMPDIR/r3"
	r3=$BATS_TEST_TMPDIR/r3
	mkdir -p "$r3/$SER/v9"
	cp "$R/$SER/$CUR_REV"/*.patch "$r3/$SER/v9/" 2>/dev/null || true
	sed "s/\"revision\": ${CUR_REV#v}/\"revision\": 9/" "$R/$COV/$CUR_REV.txt" >"$r3/$COV/v9.txt"
	cp "$BATS_TEST_DIRNAME/fixtures/does-not-apply.patch" "$r3/$SER/v9/0099-does-not-apply.patch"
	head=$(tgit rev-parse b4/safer-fput)
	run mk "$r3" series REV=v9
	[ "$status" -ne 0 ]
	[[ "$output" == *"$SER/v9/0099-does-not-apply.patch does not apply"* ]]
	[ "$(tgit rev-parse b4/safer-fput)" = "$head" ]
	[ "$(tgit symbolic-ref --short HEAD)" = b4/safer-fput ]
	[ ! -d "$TEST_WORKDIR/linux-6.1/.git/rebase-apply" ]
	[ -z "$(tgit status --porcelain)" ]
}

@test "unknown KVER or REV: refused with the list of what exists" {
	run mk "$R" tree KVER=9.9
	[ "$status" -ne 0 ]
	[[ "$output" == *"unknown KVER '9.9'"*"installed: 6.1"* ]]
	# The revisions listed as scripts/lib.sh's list_revs does: series/KVER/v*/.
	have=$(cd "$R/$SER" && echo v*/)
	have=${have//\//}
	run mk "$R" series REV=v7
	[ "$status" -ne 0 ]
	[[ "$output" == *"unknown REV 'v7' (have: $have)"* ]]
	run mk "$R" series REV=
	[ "$status" -ne 0 ]
	[[ "$output" == *"unknown REV '' (have: $have)"* ]]
}

@test "a KVER with a tree but no series/KVER/: the targets of a series refuse it in one line" {
	r=$BATS_TEST_TMPDIR/repo
	copy_repo "$r"
	mv "$r/$SER" "$r/series/9.9"
	mv "$r/$COV" "$r/cover-letters/9.9"
	# The tree is still the tree of KVER: make tree keeps working.
	run mk "$r" tree KVER="$DEF_KVER"
	echo "tree: $output"
	[ "$status" -eq 0 ]
	for t in series export revision rebase-base gate check-checkpatch cover send am trailers cocci-check; do
		run mk "$r" "$t" KVER="$DEF_KVER"
		echo "$t: $output"
		[ "$status" -ne 0 ]
		[ "${#lines[@]}" -eq 1 ]
		# (The other bases are listed too, 9.9 last, never DEF_KVER.)
		[[ "$output" =~ "no series for KVER=$DEF_KVER (bases: "([0-9.]+" ")*"9.9)" ]]
		[[ "$output" != *"bases: $DEF_KVER "* && "$output" != *" $DEF_KVER "*"9.9)"* ]]
	done
	# The scripts say so too when run on their own.
	run env WORKDIR="$TEST_WORKDIR" KVER="$DEF_KVER" "$r/scripts/series.sh"
	[ "$status" -ne 0 ]
	[[ "$output" =~ ^"series: error: no series for KVER=$DEF_KVER (bases: "([0-9.]+" ")*"9.9)"$ ]]
}

@test "no kernel tree: every target that needs one says so once, git says nothing" {
	for t in series export revision check gate-check cover send am cocci-check; do
		run make -s -C "$R" WORKDIR="$BATS_TEST_TMPDIR/none" KVER="$DEF_KVER" "$t"
		echo "$t: $output"
		[ "$status" -ne 0 ]
		[ "$(grep -c ': error: ' <<<"$output")" -eq 1 ]
		[[ "$output" == *": error: no kernel tree for KVER=$DEF_KVER at $BATS_TEST_TMPDIR/none/linux-$DEF_KVER (run 'make tree')"* ]]
		[[ "$output" != *"fatal:"* ]]
	done
}

@test "make revision: v(N+1) starts from the current vN like a b4 reroll" {
	cp -a "$R" "$BATS_TEST_TMPDIR/r4"
	r4=$BATS_TEST_TMPDIR/r4
	save_branch
	# A vN that b4 started when it sent v(N-1) is refused (mail.bats tests
	# that): reroll a copy whose cover records no send, rebuilt from it.
	python3 - "$r4/$COV/$CUR_REV.txt" <<'PY'
import json, sys
p = sys.argv[1]
cover, marker, tracking = open(p).read().partition("--- b4-submit-tracking ---\n")
comments = "".join(l + "\n" for l in tracking.splitlines() if l.startswith("#"))
data = json.loads("\n".join(l for l in tracking.splitlines() if not l.startswith("#")))
data["series"].pop("history", None)
open(p, "w").write(cover + marker + comments + json.dumps(data, indent=2) + "\n")
PY
	git -C "$r4" -c user.name=t -c user.email=t@localhost commit -q -a --allow-empty -m "$CUR_REV, unsent"
	mk "$r4" series
	run mk "$r4" revision
	[ "$status" -eq 0 ]
	[ -d "$r4/$SER/$NEXT_REV" ]
	grep -q "\"revision\": ${NEXT_REV#v}" "$r4/$COV/$NEXT_REV.txt"
	grep -q "^Changes in $NEXT_REV:" "$r4/$COV/$NEXT_REV.txt"
	grep -q "^SERIES_CURRENT=$NEXT_REV\$" "$r4/$SER/series.conf"
	tgit rev-parse -q --verify "refs/tags/sent/safer-fput-$CUR_REV"
	run bash -c "cd '$TEST_WORKDIR/linux-6.1' && b4 prep --show-info"
	[[ "$output" == *"revision: ${NEXT_REV#v}"* ]]
	# A second reroll of the same revision is refused.
	run mk "$r4" revision REV="$CUR_REV"
	[ "$status" -ne 0 ]
	# An unsent v(N+1) may be rerolled too: only a revision b4 started on
	# send is refused (tests/mail.bats).
	git -C "$r4" add -A
	git -C "$r4" -c user.name=t -c user.email=t@localhost commit -q -m "$NEXT_REV"
	run mk "$r4" revision
	tgit tag -d "sent/safer-fput-$NEXT_REV" >/dev/null 2>&1 || true
	echo "$output"
	[ "$status" -eq 0 ]
	[ -d "$r4/$SER/v$((${NEXT_REV#v} + 1))" ]
	# Back at vN, from the other copy: the v(N+1) branch is saved, so it
	# may be rebuilt.
	mk "$R" series
	run bash -c "cd '$TEST_WORKDIR/linux-6.1' && b4 prep --show-info"
	[[ "$output" == *"revision: ${CUR_REV#v}"* ]]
}

@test "make tree: a Debian version git cannot take as a ref is mangled as DEP-14 does" {
	# linux-source-6.12 is 6.12.118-1~deb12u1: '~' is not allowed in a ref.
	run bash -c '. "$1/scripts/lib.sh" && ref_version "1:6.12.118-1~deb12u1..2"' _ "$R"
	[ "$status" -eq 0 ]
	[ "$output" = "1%6.12.118-1_deb12u1.#.2" ]
	git check-ref-format "refs/tags/base/linux-source-$output"
	! git check-ref-format "refs/tags/base/linux-source-6.12.118-1~deb12u1"
}

@test "a series base the tree does not have: gate-check and boot name the package and what to do" {
	r=$BATS_TEST_TMPDIR/repo
	copy_repo "$r"
	sed -i 's/^SERIES_PKGVER=.*/SERIES_PKGVER=6.1.190-1/; s|^SERIES_BASE_TAG=.*|SERIES_BASE_TAG=base/linux-source-6.1.190-1|' \
		"$r/$SER/series.conf"
	want="error: series is based on base/linux-source-6.1.190-1 (linux-source-6.1 6.1.190-1) but $TEST_WORKDIR/linux-6.1 does not have it (tree has base/linux-source-"
	for t in gate-check boot; do
		run mk "$r" "$t"
		echo "$t: $output"
		[ "$status" -ne 0 ]
		[ "$(printf '%s\n' "$output" | grep -c 'error:')" -eq 1 ]
		[[ "$output" == *"$want"*"): install that package version and run 'make tree', or fix $SER/series.conf"* ]]
	done
}

# fake_base VERSION FILE SED: tag base/linux-source-VERSION on a root commit
# of the series' base tree with FILE edited by SED, as `make tree` would
# import a Debian update of the package.
fake_base() {
	local base blob idx=$BATS_TEST_TMPDIR/index
	base=$(tgit rev-parse "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")^{commit}")
	GIT_INDEX_FILE=$idx tgit read-tree "$base"
	blob=$(tgit show "$base:$2" | sed "$3" | tgit hash-object -w --stdin)
	GIT_INDEX_FILE=$idx tgit update-index --cacheinfo "100644,$blob,$2"
	tgit tag -f "base/linux-source-$1" \
		"$(tgit commit-tree -m "fake linux-source $1" "$(GIT_INDEX_FILE=$idx tgit write-tree)")" >/dev/null
}

# fake_base_with VERSION COMMIT: tag base/linux-source-VERSION on a root
# commit of the series' base tree with COMMIT's change applied: a Debian
# update that carries one of the series' patches.
fake_base_with() {
	local base idx=$BATS_TEST_TMPDIR/index
	base=$(tgit rev-parse "$(. "$R/$SER/series.conf" && echo "$SERIES_BASE_TAG")^{commit}")
	GIT_INDEX_FILE=$idx tgit read-tree "$base"
	tgit diff "$2^" "$2" | GIT_INDEX_FILE=$idx tgit apply --cached
	tgit tag -f "base/linux-source-$1" \
		"$(tgit commit-tree -m "fake linux-source $1" "$(GIT_INDEX_FILE=$idx tgit write-tree)")" >/dev/null
}

@test "make rebase-base: a patch the new base already carries is named and counted" {
	r=$BATS_TEST_TMPDIR/repo
	copy_repo "$r"
	save_branch
	old=$(. "$r/$SER/series.conf" && echo "$SERIES_BASE_TAG")
	n=$(tgit rev-list --count "$old..b4/safer-fput")
	last=$(tgit rev-parse b4/safer-fput)
	subject=$(tgit log -1 --format=%s "$last")
	fake_base_with 6.1.997-1 "$last"
	run mk "$r" rebase-base ONTO=base/linux-source-6.1.997-1
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c "dropped, already in base/linux-source-6.1.997-1: '$subject'")" -eq 1 ]
	[ "${lines[-1]}" = "rebase-base $CUR_REV: PASS (${old#base/linux-source-} -> 6.1.997-1, $((n - 1)) commits, 1 dropped as already in the new base)" ]
	[ "$(tgit log -1 --format=%s b4/safer-fput)" != "$subject" ]
	[ "$(find "$r/$SER/$CUR_REV" -name '*.patch' | wc -l)" -eq $((n - 2)) ]
}

@test "make rebase-base: onto another base with the old head kept; a conflict aborts, naming the patch" {
	r=$BATS_TEST_TMPDIR/repo
	copy_repo "$r"
	save_branch
	old=$(. "$r/$SER/series.conf" && echo "$SERIES_BASE_TAG")
	head=$(tgit rev-parse b4/safer-fput)
	n=$(tgit rev-list --count "$old..b4/safer-fput")
	# A new base that differs where no patch goes: every patch applies.
	fake_base 6.1.999-1 README 's/^Linux kernel$/Linux kernel (updated)/'
	run mk "$r" rebase-base ONTO=base/linux-source-6.1.999-1
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "rebase-base $CUR_REV: PASS (${old#base/linux-source-} -> 6.1.999-1, $n commits)" ]
	tgit merge-base --is-ancestor base/linux-source-6.1.999-1 b4/safer-fput
	[ "$(tgit rev-parse "pre-rebase/safer-fput-${old#base/linux-source-}")" = "$head" ]
	grep -qx 'SERIES_BASE_TAG=base/linux-source-6.1.999-1' "$r/$SER/series.conf"
	grep -qx 'SERIES_PKGVER=6.1.999-1' "$r/$SER/series.conf"
	# series/ was exported from the rebased branch: nothing left to do.
	run mk "$r" series
	[[ "$output" == *"nothing to do"* ]]
	# Back onto the installed package's tree, the default: the same
	# patches as before.
	git -C "$r" -c user.name=t -c user.email=t@localhost commit -q -a -m "rebased"
	run mk "$r" rebase-base
	[ "$status" -eq 0 ]
	grep -qx "SERIES_BASE_TAG=$old" "$r/$SER/series.conf"
	[ "$(tgit rev-parse 'b4/safer-fput^{tree}')" = "$(tgit rev-parse "$head^{tree}")" ]
	# A base that changed the lines patch 1 changes.
	git -C "$r" -c user.name=t -c user.email=t@localhost commit -q -a -m "back"
	fake_base 6.1.998-1 kernel/task_work.c 's/^ \* Note: there is no ordering guarantee on works queued here\./ * Note: the order of the works queued here is unspecified./'
	h2=$(tgit rev-parse b4/safer-fput)
	run mk "$r" rebase-base ONTO=base/linux-source-6.1.998-1
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$(printf '%s\n' "$output" | grep -c 'error:')" -eq 1 ]
	[ "$(verdict 'rebase-base: error')" = "rebase-base: error: 'task_work: run works in FIFO order' conflicts with base/linux-source-6.1.998-1 in kernel/task_work.c: rebase aborted, b4/safer-fput untouched" ]
	[ "$(tgit rev-parse b4/safer-fput)" = "$h2" ]
	[ -z "$(tgit status --porcelain)" ]
	grep -qx "SERIES_BASE_TAG=$old" "$r/$SER/series.conf"
}
