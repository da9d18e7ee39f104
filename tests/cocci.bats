#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# cocci.bats - the Coccinelle semantic patches (coccinelle/): their test cases
# pass, and the runner really fails on a wrong expected output or reason.

# No kernel build, no lock of the test WORKDIR (the report has a workdir of
# its own): tests/run runs this file beside the files that build and boot
# kernels. Every test but the reports over a kernel tree is also in the
# quick tier (make test-quick): the cases and fixture trees are small.
# bats file_tags=beside-builds

load helpers

# The base worktree report_base scans (below) is for this file alone.
teardown_file() {
	drop_scratch "$TEST_WORKDIR/cocci-base"
}

setup() {
	command -v spatch >/dev/null || skip "spatch not installed (apt-get install coccinelle)"
}

# bats test_tags=quick
@test "make cocci-test passes every case of both scripts" {
	run make -s -C "$TOP" cocci-test
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" =~ ^"cocci-test: PASS ("[0-9]+" cases)"$ ]]
	[ "$(grep -c '^PASS fdget-' <<<"$output")" -ge 12 ]
	[ "$(grep -c '^PASS fput_nodefer-' <<<"$output")" -ge 12 ]
	[ "$(grep -c '^PASS audit-' <<<"$output")" -ge 6 ]
}

# audit_case_breaks CASE WHAT FILE SED: the audit case CASE passes with the
# analysis as it is, and fails once FILE of a copy of coccinelle/ is edited
# with SED (WHAT says what that breaks).
audit_case_breaks() {
	local c=$1 what=$2 file=$3 edit=$4 d=$BATS_TEST_TMPDIR/$1
	mkdir -p "$d/t"
	cp -r "$TOP/coccinelle" "$d/cocci"
	cp "$TOP/coccinelle/tests/$c".* "$d/t/"
	# (The run fails: fdget and fput_nodefer have no case in $d/t.)
	run "$d/cocci/run-tests.sh" "$d/t"
	echo "$output"
	grep -qx "PASS $c" <<<"$output"
	sed -i -e "$edit" "$d/cocci/$file"
	! cmp -s "$TOP/coccinelle/$file" "$d/cocci/$file" || { echo "$file: the edit changed nothing"; false; }
	run "$d/cocci/run-tests.sh" "$d/t"
	echo "$what: $output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL $c: output differs from $c.res"* ]]
}

# bats test_tags=quick
@test "audit: a case fails when the analysis it checks is broken" {
	# The lock held at the put: no longer reported when the rule that
	# finds it emits nothing.
	audit_case_breaks audit-mutex-held "held rule silenced" audit.cocci \
		"/^p << held.p;/,/^emit/s/^emit('H'.*/pass/"
	# A release before the put: reported held when releases are ignored.
	audit_case_breaks audit-mutex-released "release ignored" audit.cocci \
		'/^@held exists@/,/^@script/{/^\.\.\. when != rr(E, \.\.\.)$/s/.*/.../}'
	# guard(): the scope ends at its block's brace, or the put after the
	# block is said to be under the lock too.
	audit_case_breaks audit-guard "guard scope unbounded" audit.py \
		's/^                if t > end:$/                if False:/'
	# The work function, the kthread, the system call: their contexts.
	audit_case_breaks audit-workqueue "INIT_WORK unknown" data/entries '/^arg *INIT_WORK /d'
	audit_case_breaks audit-kthread "kthread_run unknown" data/entries '/^arg *kthread_run /d'
	audit_case_breaks audit-syscall "no system call" audit.cocci \
		"s/return int(line.startswith(('SYSCALL_DEFINE', 'COMPAT_SYSCALL_DEFINE')))/return 0/"
}

# audit_tree DIR: a git tree in DIR with the sites of tests/fixtures/cocci/audit.
audit_tree() {
	local d=$1
	mkdir -p "$d/fs" "$d/include/linux" "$d/kernel"
	cat >"$d/include/linux/file.h" <<-'EOF'
	/* __fput_sync() runs __fput() in the caller */
	extern void __fput_sync(struct file *);
	EOF
	cp "$TOP/coccinelle/tests/audit-syscall.c" "$d/fs/a.c"
	cp "$TOP/coccinelle/tests/audit-free.c" "$d/kernel/b.c"
	git -C "$d" init -q
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m t
}

# bats test_tags=quick
@test "make cocci-audit accounts for every git grep line of a synchronous put and fails on one it cannot" {
	d=$BATS_TEST_TMPDIR/tree
	audit_tree "$d"
	run env COCCI_TREE="$d" WORKDIR="$BATS_TEST_TMPDIR/w" make -s -C "$TOP" cocci-audit
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fs/a.c:7  demo_release_file()  user task  &demo_lock in sys_demo_close_locked()"* ]]
	[[ "$output" == *"kernel/b.c:14  demo_on() __free(demo_sync)  user task  &demo_on_lock in sys_demo_acct()"* ]]
	[[ "$output" == *"include/linux/file.h:1: not a call: in a comment"* ]]
	[[ "$output" == *"include/linux/file.h:2: not a call: the declaration or definition of __fput_sync()"* ]]
	[[ "$output" == *"kernel/b.c:8: not a site: the cleanup class demo_sync"* ]]
	[[ "$output" == *"cocci-report: audit: 2 synchronous puts: 0 lock-free, 2 under a lock (fs/a.c: demo_lock; kernel/b.c: demo_on_lock), 0 unknown; "*": 5 lines, 2 sites, 3 not sites, 0 unaccounted"* ]]
	[[ "${lines[-1]}" == "cocci-report: PASS (every git grep site accounted for, "* ]]
	# The markdown form, for a cover letter.
	run env COCCI_TREE="$d" WORKDIR="$BATS_TEST_TMPDIR/w" COCCI_AUDIT=table make -s -C "$TOP" cocci-audit
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| site | function | context | locks held at the put |"* ]]
	[[ "$output" == *"| fs/a.c:7 | demo_release_file() | user task | &demo_lock in sys_demo_close_locked() at fs/a.c:19 |"* ]]
	# A call spatch does not see, for no reason the audit can give.
	printf '#if 0\nvoid x(struct file *f)\n{\n\t__fput_sync(f);\n}\n#endif\n' >"$d/fs/c.c"
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m t2
	run env COCCI_TREE="$d" WORKDIR="$BATS_TEST_TMPDIR/w" make -s -C "$TOP" cocci-audit
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"fs/c.c:4: unaccounted: spatch did not see this call"* ]]
	[[ "$output" == *"cocci-report: FAIL: audit: not every git grep site accounted for"* ]]
}

# bats test_tags=quick
@test "sections.py: a commit per MAINTAINERS section, the longest data/prefixes path its prefix; a bad row is one line" {
	m=$BATS_TEST_TMPDIR/MAINTAINERS
	printf '%s\n' 'KVM X86' 'F:	arch/x86/kvm/' '' 'FUSE' 'F:	fs/fuse/' >"$m"
	run python3 "$TOP/coccinelle/sections.py" "$m" arch/x86/kvm/svm/sev.c arch/x86/kvm/x86.c fs/fuse/dev.c
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'KVM X86\tKVM: SVM\tarch/x86/kvm/svm/sev.c' ]
	[ "${lines[1]}" = $'KVM X86\tKVM: x86\tarch/x86/kvm/x86.c' ]
	[ "${lines[2]}" = $'FUSE\tfuse\tfs/fuse/dev.c' ]
	mkdir "$BATS_TEST_TMPDIR/data"
	printf 'arch/x86/kvm/\n' >"$BATS_TEST_TMPDIR/data/prefixes"
	run env SAFER_FPUT_DATA="$BATS_TEST_TMPDIR/data" python3 "$TOP/coccinelle/sections.py" "$m" fs/fuse/dev.c
	[ "$status" -ne 0 ]
	[ "$output" = "sections.py: $BATS_TEST_TMPDIR/data/prefixes:1: not \"path prefix\": arch/x86/kvm/" ]
}

# bats test_tags=quick
@test "a case whose .res is wrong fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d"
	cp "$TOP"/coccinelle/tests/fdget-assign.* "$TOP"/coccinelle/tests/fdget-return.* "$d/"
	# Expect the unconverted text where the script converts.
	cp "$d/fdget-assign.c" "$d/fdget-assign.res"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL fdget-assign: output differs from fdget-assign.res"* ]]
	[[ "$output" == *"PASS fdget-return"* ]]
}

# bats test_tags=quick
@test "a must-not-convert case whose .res converts fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d"
	cp "$TOP"/coccinelle/tests/fput_nodefer-spinlock.* "$d/"
	sed -i 's/\tfput(file);/\tfput_nodefer(file);/' "$d/fput_nodefer-spinlock.res"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL fput_nodefer-spinlock: output differs"* ]]
}

# bats test_tags=quick
@test "a rejection for the wrong reason fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d"
	cp "$TOP"/coccinelle/tests/fdget-loop.* "$d/"
	sed -i '1s,.*,// expect: rejected: reference escapes,' "$d/fdget-loop.c" "$d/fdget-loop.res"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL fdget-loop: report says"*"expected rejected: reference escapes"* ]]
}

# summarise DIR FILE...: pass 1 over fixtures, into $BATS_TEST_TMPDIR/sum.
summarise() {
	local d=$1
	shift
	(cd "$d" && COCCI_CACHE='' "$TOP/coccinelle/summaries.sh" . "$BATS_TEST_TMPDIR/sum" "$@")
	export SAFER_FPUT_SUMMARIES=$BATS_TEST_TMPDIR/sum/summaries.json
	export SAFER_FPUT_DATA=$TOP/coccinelle/data
}

# bats test_tags=quick
@test "report mode prints every site as converted or rejected with a reason" {
	summarise "$TOP/coccinelle/tests" fdget-assign.c fdget-field-get.c
	cd "$TOP/coccinelle/tests"
	run spatch --very-quiet --macro-file "$TOP/coccinelle/macros.h" \
		--sp-file "$TOP/coccinelle/fdget.cocci" -D report fdget-assign.c fdget-field-get.c
	echo "$output"
	[[ "$output" == *"fdget-assign.c:17: converted"* ]]
	[[ "$output" == *"fdget-field-get.c:4: rejected: result not held in a local struct file * variable"* ]]
}

# bats test_tags=quick
@test "the rules refuse to run without summaries or data" {
	summarise "$TOP/coccinelle/tests" fdget-assign.c
	sum=$SAFER_FPUT_SUMMARIES
	for s in fdget fput_nodefer; do
		# Neither variable set: the summaries are named first.
		run env -u SAFER_FPUT_SUMMARIES -u SAFER_FPUT_DATA \
			spatch --very-quiet --sp-file "$TOP/coccinelle/$s.cocci" -D report \
			"$TOP/coccinelle/tests/fdget-assign.c"
		echo "$output"
		[[ "$output" == *"$s.cocci: SAFER_FPUT_SUMMARIES must name"* ]]
		[[ "$output" != *Traceback* ]]
		run env -u SAFER_FPUT_DATA SAFER_FPUT_SUMMARIES="$sum" \
			spatch --very-quiet --sp-file "$TOP/coccinelle/$s.cocci" -D report \
			"$TOP/coccinelle/tests/fdget-assign.c"
		echo "$output"
		[[ "$output" == *"$s.cocci: SAFER_FPUT_DATA must name coccinelle/data"* ]]
		[[ "$output" != *Traceback* ]]
	done
}

# bats test_tags=quick
@test "summaries follow callees to a fixpoint, and unknown is never ok" {
	summarise "$TOP/coccinelle/tests" fdget-callee-closes.c fdget-callee-stores.c \
		fdget-callee-indirect.c fput_nodefer-lock-wrapper.c fdget-borrowing-callee.c
	j=$SAFER_FPUT_SUMMARIES
	sum() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' "$j" "$@"; }
	# Two levels down to close_fd().
	run sum fdtable fdget-callee-closes.c:demo_tidy
	[[ "$output" == *"'bad', 'demo_drop() at fdget-callee-closes.c:9 -> calls close_fd() at fdget-callee-closes.c:4'"* ]]
	# A store one call down: the caller does not borrow either.
	run sum borrows fdget-callee-stores.c:demo_note/0
	[[ "$output" == *"demo_remember() at fdget-callee-stores.c:12 -> file is used at"*"other than"* ]]
	run sum fdtable fdget-callee-indirect.c:demo_tell
	[[ "$output" == *"unknown: indirect call through ->notify"* ]]
	run sum locked fput_nodefer-lock-wrapper.c:demo_grab
	[[ "$output" == *"takes spin_lock()"* ]]
	run sum borrows fdget-borrowing-callee.c:demo_ns_of/0
	[ "$output" = "['ok']" ]
	# A callee with no body is unknown, not ok.
	run sum fdtable demo_flags_and_spawn
	[[ "$output" != "['ok']" ]]
}

# bats test_tags=quick
@test "the report accounts for every git grep site and fails on an unexplained one" {
	d=$BATS_TEST_TMPDIR/tree
	mkdir -p "$d/fs" "$d/include/linux"
	cp "$TOP/coccinelle/tests/fdget-assign.c" "$d/fs/a.c"
	cat >"$d/include/linux/file.h" <<-'EOF'
	/* fget() takes a reference */
	extern struct file *fget(unsigned int fd);
	#define fget_raw_demo(fd) fget(fd)
	EOF
	git -C "$d" init -q
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m t
	run env COCCI_TREE="$d" WORKDIR="$BATS_TEST_TMPDIR/w" COCCI_SCRIPTS=fdget make -s -C "$TOP" cocci-report
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fs/a.c:17: converted"* ]]
	[[ "$output" == *"include/linux/file.h:1: not a call: in a comment"* ]]
	[[ "$output" == *"include/linux/file.h:2: not a call: the declaration or definition of fget()"* ]]
	[[ "$output" == *"include/linux/file.h:3: rejected: result not held in a local"* ]]
	[[ "$output" == *"fdget.cocci: 4 sites: 1 converted, 1 rejected, 2 not analysed or not calls, 0 unaccounted; git grep \"fget(\": 4 lines"* ]]
	[[ "$output" == *"cocci-report: PASS"* ]]
	# A call spatch does not see, for no reason the report can give.
	printf '#if 0\nint x(void)\n{\n\treturn fget(3) != 0;\n}\n#endif\n' >"$d/fs/b.c"
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m t2
	run env COCCI_TREE="$d" WORKDIR="$BATS_TEST_TMPDIR/w" COCCI_SCRIPTS=fdget make -s -C "$TOP" cocci-report
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"fs/b.c:4: unaccounted: spatch did not see this call"* ]]
	[[ "$output" == *"cocci-report: FAIL: "* ]]
}

# bats test_tags=quick
@test "a file spatch gives up on is not analysed, not lost" {
	d=$BATS_TEST_TMPDIR/tree
	mkdir -p "$d/drivers"
	cp "$TOP/tests/fixtures/cocci/loops.c" "$d/drivers/loops.c"
	git -C "$d" init -q
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m t
	run env COCCI_TREE="$d" WORKDIR="$BATS_TEST_TMPDIR/w" COCCI_SCRIPTS=fdget \
		COCCI_TIMEOUT=2 make -s -C "$TOP" cocci-report
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c ': not analysed: spatch gave up on drivers/loops.c after 2 s' <<<"$output")" -eq 5 ]
	[[ "$output" == *"fdget.cocci: 7 sites: 0 converted, 0 rejected, 7 not analysed or not calls, 0 unaccounted"* ]]
}

# bats test_tags=quick
@test "summaries: a file spatch gives up on is scanned again next time, not cached as empty" {
	d=$BATS_TEST_TMPDIR/tree
	mkdir -p "$d/drivers"
	# Thousands of functions: more than a second to parse.
	awk 'BEGIN { print "struct file *fget(unsigned int fd);\nvoid fput(struct file *f);"
		for (i = 0; i < 6000; i++)
			printf "int f%d(int fd)\n{\n\tstruct file *f = fget(fd);\n\n\tif (!f)\n\t\treturn -1;\n\tfput(f);\n\treturn %d;\n}\n", i, i }' \
		>"$d/drivers/big.c"
	git -C "$d" init -q
	git -C "$d" add -A
	git -C "$d" -c user.name=t -c user.email=t@t commit -q -m t
	for n in 1 2; do
		run env COCCI_CACHE="$BATS_TEST_TMPDIR/cache" COCCI_TIMEOUT=1 \
			"$TOP/coccinelle/summaries.sh" "$d" "$BATS_TEST_TMPDIR/out$n"
		echo "$output"
		[ "$status" -eq 0 ]
		[[ "${lines[-1]}" == "summaries: 0 functions, 1 rounds, 1 files scanned (0 cached), "* ]]
	done
}

# gen_tree DIR [FILE_H]: a one-file kernel tree for generate.sh, committed:
# fs/a.c (coccinelle/tests/fdget-assign.c), a MAINTAINERS section for fs/,
# and include/linux/file.h with FILE_H when given (the tree's idiom).
gen_tree() {
	mkdir -p "$1/fs"
	cp "$TOP/coccinelle/tests/fdget-assign.c" "$1/fs/a.c"
	printf 'FILESYSTEMS (VFS and infrastructure)\nM:\tA <a@example.org>\nF:\tfs/\n' >"$1/MAINTAINERS"
	if [ -n "${2:-}" ]; then
		mkdir -p "$1/include/linux"
		printf '%s' "$2" >"$1/include/linux/file.h"
	fi
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" -c user.name=t -c user.email=t@example.org commit -q -m base
}

# gen DIR: generate.sh's fdget commits on DIR, with the site arguments of
# $BATS_TEST_TMPDIR/sites. A fixture tree is no kernel to build: the
# compile step is $BATS_TEST_TMPDIR/compile, which logs what it is given
# and fails when $BATS_TEST_TMPDIR/broken exists (gate.bats runs the real
# coccinelle/compile.sh on a kernel tree).
gen() {
	cat >"$BATS_TEST_TMPDIR/compile" <<-'EOF'
	#!/bin/sh
	echo "$*" >>"${0%/*}/compiled"
	[ ! -e "${0%/*}/broken" ] || { echo "fs/a.c:5:9: error: 'f' undeclared"; exit 1; }
	EOF
	chmod +x "$BATS_TEST_TMPDIR/compile"
	WORKDIR=$BATS_TEST_TMPDIR/w COCCI_SCRIPTS=fdget COCCI_SITES=$BATS_TEST_TMPDIR/sites \
		COCCI_COMPILE=$BATS_TEST_TMPDIR/compile "$TOP/coccinelle/generate.sh" "$1"
}

# bats test_tags=quick
@test "make cocci compiles what a script changed before it commits, and refuses code that does not compile" {
	d=$BATS_TEST_TMPDIR/tree
	gen_tree "$d"
	printf '@ fs/a.c demo_fsync\ndemo_fsync() only borrows the file.\n' >"$BATS_TEST_TMPDIR/sites"
	run gen "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/compiled")" = "$d fs/a.c" ]
	# A reviewed generated commit, then a conversion that does not compile:
	# refused with the error; the commit and its trailer stay, the tree clean.
	git -C "$d" log -1 --format=%B HEAD |
		sed 's/^Signed-off-by: /Reviewed-by: Rev Iewer <reviewer@example.org>\n&/' >"$BATS_TEST_TMPDIR/msg"
	git -C "$d" -c user.name=t -c user.email=t@example.org commit -q --amend --cleanup=verbatim -F "$BATS_TEST_TMPDIR/msg"
	head=$(git -C "$d" rev-parse HEAD)
	touch "$BATS_TEST_TMPDIR/broken"
	run gen "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"fs/a.c:5:9: error: 'f' undeclared"* ]]
	[[ "${lines[-1]}" == "cocci: error: fdget.cocci wrote code that does not compile (the compiler's error above); nothing committed, $d left as it was" ]]
	[ "$(git -C "$d" rev-parse HEAD)" = "$head" ]
	[ -z "$(git -C "$d" status --porcelain --untracked-files=no)" ]
	# With no compile command given, a tree that is no kernel is refused.
	rm "$BATS_TEST_TMPDIR/broken"
	run env WORKDIR="$BATS_TEST_TMPDIR/w" COCCI_SCRIPTS=fdget COCCI_SITES="$BATS_TEST_TMPDIR/sites" \
		"$TOP/coccinelle/generate.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"compile: error: $d is not a kernel tree: cannot compile fs/a.c"* ]]
	[ "$(git -C "$d" rev-parse HEAD)" = "$head" ]
}

# bats test_tags=quick
@test "make cocci keeps the review trailers of a generated commit it regenerates" {
	d=$BATS_TEST_TMPDIR/tree
	gen_tree "$d"
	printf '@ fs/a.c demo_fsync\ndemo_fsync() only borrows the file.\n' >"$BATS_TEST_TMPDIR/sites"
	run gen "$d"
	[ "$status" -eq 0 ]
	diff1=$(git -C "$d" show --format= HEAD)
	# A reviewer's trailer, as make trailers puts it: before the sign-off.
	git -C "$d" log -1 --format=%B HEAD |
		sed 's/^Signed-off-by: /Reviewed-by: Rev Iewer <reviewer@example.org>\n&/' >"$BATS_TEST_TMPDIR/msg"
	git -C "$d" -c user.name=t -c user.email=t@example.org commit -q --amend --cleanup=verbatim -F "$BATS_TEST_TMPDIR/msg"
	run gen "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(git -C "$d" rev-list --count HEAD)" -eq 2 ]
	[ "$(git -C "$d" show --format= HEAD)" = "$diff1" ]
	git -C "$d" log -1 --format=%B HEAD | grep -A1 -x 'Reviewed-by: Rev Iewer <reviewer@example.org>' |
		grep -q '^Signed-off-by: '
}

# bats test_tags=quick
@test "make cocci writes the idiom of the tree: CLASS(fd) where file.h has it and fd_empty(), else fdget()" {
	# 6.1.192: CLASS(fd) without the accessors of 6.12's struct fd.
	for idiom in fd_class 6.1.192 6.1; do
		d=$BATS_TEST_TMPDIR/$idiom
		fileh=$'struct fd fdget(unsigned int fd);\n'
		[ "$idiom" != fd_class ] ||
			fileh+=$'static inline bool fd_empty(struct fd f)\n{\n\treturn !f.word;\n}\n'
		[ "$idiom" = 6.1 ] ||
			fileh+=$'DEFINE_CLASS(fd, struct fd, fdput(_T), fdget(fd), int fd)\n'
		gen_tree "$d" "$fileh"
		printf '@ fs/a.c demo_fsync\ndemo_fsync() only borrows the file.\n' >"$BATS_TEST_TMPDIR/sites"
		run gen "$d"
		echo "$output"
		[ "$status" -eq 0 ]
		run git -C "$d" show HEAD
		echo "$output"
		if [ "$idiom" = fd_class ]; then
			[[ "$output" == *"fs: use CLASS(fd) in demo_fsync()"* ]]
			[[ "$output" == *"+	CLASS(fd, f)(fd);"* ]]
			[[ "$output" == *"+	if (fd_empty(f))"* ]]
			[[ "$output" != *"+	fdput("* ]]
		else
			[[ "$output" == *"fs: use fdget() in demo_fsync()"* ]]
			[[ "$output" != *"fd_class"* ]]
			[[ "$output" == *"+	f = fdget(fd);"* ]]
			[[ "$output" == *"+	fdput(f);"* ]]
		fi
	done
}

# bats test_tags=quick
@test "make cocci: a generated commit carries the site's reviewed argument and names no project path or variable" {
	d=$BATS_TEST_TMPDIR/tree
	gen_tree "$d"
	# No argument for the site: refused, nothing committed.
	printf '@ fs/b.c other\nNot this site.\n' >"$BATS_TEST_TMPDIR/sites"
	run gen "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "${lines[-1]}" == "cocci: error: no safety argument for fs/a.c: demo_fsync() in $BATS_TEST_TMPDIR/sites: read the site and write one (nothing committed)" ]]
	[ "$(git -C "$d" rev-list --count HEAD)" -eq 1 ]
	[ -z "$(git -C "$d" status --porcelain --untracked-files=no)" ]
	printf '@ fs/a.c demo_fsync\ndemo_fsync() takes fd only to sync the inode.\n' >>"$BATS_TEST_TMPDIR/sites"
	COCCI_JOBS=1 gen "$d"
	run git -C "$d" log -1 --format=%B HEAD
	echo "$output"
	[ "${lines[1]}" = "demo_fsync() takes fd only to sync the inode." ]
	[[ "$output" == *"Generated with Coccinelle: the semantic patch checks these conditions"* ]]
	[[ "$output" != *SAFER_FPUT* && "$output" != *coccinelle/* && "$output" != *--jobs* && "$output" != *.cocci* ]]
	# The message does not depend on the run's options: the same with 2 jobs.
	first=$(git -C "$d" log -1 --format=%B HEAD)
	COCCI_JOBS=2 gen "$d"
	[ "$(git -C "$d" log -1 --format=%B HEAD)" = "$first" ]
	[ "$(git -C "$d" rev-list --count HEAD)" -eq 2 ]
}

# bats test_tags=quick
@test "a 6.12 case run without its tree's idiom fails" {
	d=$BATS_TEST_TMPDIR/t
	mkdir -p "$d/6.12"
	cp "$TOP"/coccinelle/tests/6.12/fdget-class-plain.* "$d/6.12/"
	# The tree of the case says nothing of CLASS(fd): 6.1's form comes out.
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL 6.12/fdget-class-plain: output differs from fdget-class-plain.res"* ]]
	cp -r "$TOP/coccinelle/tests/6.12/include" "$d/6.12/"
	run "$TOP/coccinelle/run-tests.sh" "$d"
	echo "$output"
	[[ "$output" == *"PASS 6.12/fdget-class-plain"* ]]
}

# bats test_tags=quick
@test "the scripts carry the scripts/coccinelle header, the rules the three modes" {
	for s in "$TOP"/coccinelle/*.cocci; do
		grep -q '^/// ' "$s"
		grep -q '^// Confidence: ' "$s"
		grep -q '^// Copyright: ' "$s"
		grep -q '^// Options: ' "$s"
		grep -q '^// Keywords: ' "$s"
		# The analysis passes (no semantic patch): no modes.
		case ${s##*/} in summaries.cocci | audit.cocci) continue ;; esac
		grep -qx 'virtual patch' "$s"
		grep -qx 'virtual report' "$s"
		grep -qx 'virtual context' "$s"
	done
}

# bats test_tags=quick
@test "the scripts give spatch a word to grep the tree for, in every mode" {
	# A rule with no token of its own (a metavariable pattern) that does not
	# depend on a rule with one leaves spatch no grep query: --use-gitgrep
	# then reads every file of the tree, hours instead of minutes.
	for s in fdget fput_nodefer; do
		w=fget
		[ "$s" = fdget ] || w=fput
		for d in patch report; do
			for v in "" $(grep -o '^virtual fd_class$' "$TOP/coccinelle/$s.cocci" | cut -d' ' -f2); do
				run spatch --parse-cocci "$TOP/coccinelle/$s.cocci" -D "$d" ${v:+-D "$v"}
				[ "$status" -eq 0 ]
				grep -A1 -x 'Grep query' <<<"$output" | tail -n 1 | grep -qw "$w" ||
					{ echo "$s.cocci -D $d${v:+ -D $v}: no grep query for $w"; false; }
			done
		done
	done
}

# report_base [PATHS]: make cocci-report over the 6.1 base tree (COCCI_PATHS
# PATHS, default all of it): every site accounted for, the upstream hand
# conversions converted, dma_buf_get() rejected.
report_base() {
	tree=$TEST_WORKDIR/linux-6.1
	[ -d "$tree/.git" ] || make -s -C "$TOP" WORKDIR="$TEST_WORKDIR" KVER=6.1 tree
	wt=$TEST_WORKDIR/cocci-base
	base=$(git -C "$tree" tag -l 'base/linux-source-6.1*' | tail -n 1)
	[ -n "$base" ]
	# A worktree of a tree foundation.bats extracted afresh since is stale.
	if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$wt" "$base"
	fi
	git -C "$wt" checkout -q --detach "$base"
	# tests/run runs this file beside the kernel builds, at a lower
	# priority: a file's scan may take several times its CPU time. The
	# report keeps its facts, and takes its lock, in a WORKDIR of its own,
	# so no make of the kernel builds waits for it.
	run env COCCI_TREE="$wt" ${1:+COCCI_PATHS="$1"} WORKDIR="$TEST_WORKDIR/cocci-report" \
		COCCI_TIMEOUT=600 make -s -C "$TOP" cocci-report
	echo "$output" | grep -v ': rejected: ' | grep -v ': not a call: '
	[ "$status" -eq 0 ]
	[[ "$output" == *"fdget.cocci: "*" 0 unaccounted; git grep \"fget(\": "* ]]
	[[ "$output" == *"fput_nodefer.cocci: "*" 0 unaccounted; git grep \"fput(\": "* ]]
	# The upstream hand conversions the analysis can prove.
	for s in arch/x86/kernel/cpu/sgx/main.c:900 arch/x86/kvm/svm/sev.c:2078 fs/fuse/dev.c:2268 \
		fs/namespace.c:4324; do
		[[ "$output" == *"$s: converted"* ]]
	done
	# dma_buf_get() keeps its reference: never converted.
	[[ "$output" == *"drivers/dma-buf/dma-buf.c:745: rejected: "*"has no fput()"* ]]
	[[ "$output" == *"cocci-report: PASS"* ]]
}

# bats test_tags=quick
@test "cocci-report: COCCI_PATHS that is not directories of the tree is a one-line error" {
	# What is wrong with the value itself is said before looking for a tree.
	for p in "" " " /fs "fs/../.." "fs/*" "fs/[a-z]*"; do
		run env COCCI_PATHS="$p" WORKDIR="$BATS_TEST_TMPDIR/none" make -s -C "$TOP" cocci-report
		echo "[$p]: $output"
		[ "$status" -ne 0 ]
		[ "${#lines[@]}" -le 2 ]
		[[ "${lines[0]}" == "cocci-report: error: COCCI_PATHS"* ]]
	done
	# A directory the tree does not have.
	git init -q "$BATS_TEST_TMPDIR/t"
	mkdir "$BATS_TEST_TMPDIR/t/fs"
	for p in "fs ./nosuch/" "fs"$'\n'"nosuch"; do
		run env COCCI_TREE="$BATS_TEST_TMPDIR/t" COCCI_PATHS="$p" WORKDIR="$BATS_TEST_TMPDIR/none" \
			make -s -C "$TOP" cocci-report
		echo "[$p]: $output"
		[ "$status" -ne 0 ]
		[ "${lines[0]}" = "cocci-report: error: COCCI_PATHS: no directory nosuch in $BATS_TEST_TMPDIR/t" ]
	done
}

# The full tier's: the scan is CPU-bound for many minutes (722 s beside
# CI's cold 6.1 build, over fs/, arch/x86/, drivers/vfio/ and
# drivers/dma-buf/ alone), and CI's hour is the kernel builds'. Every rule
# it exercises has its small cases above.
# bats test_tags=full
@test "the report over the whole 6.1 tree accounts for every fget( and fput( line" {
	report_base
}
