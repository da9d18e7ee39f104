# shellcheck shell=bash
# helpers.bash - shared setup for the bats tests: a scratch copy of this repo
# and a test WORKDIR, so no test touches the developer's own tree or branch.

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

# The base the workflow tests run on, its series and cover letters (paths
# relative to a repo copy), its current revision and the one a reroll of it
# makes. It is 6.1, not the default base of series/series.conf (7.3): 6.1
# has the history the tests need (a sent revision, an open one, trailers),
# and mk passes it to every make. tests/base-7.3.bats gates the default
# base, with no KVER given.
DEF_KVER=6.1
# The scripts the tests run directly (boot/faults.sh, boot/bisect.sh ...)
# read KVER from the environment as make does: 6.1 for them too, unless a
# test names another base. base-7.3.bats unsets it to test the default.
export KVER=$DEF_KVER
SER=series/$DEF_KVER
# shellcheck disable=SC2034 # used by the .bats files that load this one
COV=cover-letters/$DEF_KVER
CUR_REV=$(sed -n 's/^SERIES_CURRENT=//p' "$TOP/$SER/series.conf")
# shellcheck disable=SC2034 # used by the .bats files that load this one
NEXT_REV=v$((${CUR_REV#v} + 1))

# The test workdir is shared by the test files of one run; it holds its own
# kernel tree, made by `make tree` like any other.
: "${TEST_WORKDIR:=${WORKDIR:-$HOME/.cache/safer-fput}/test}"
export TEST_WORKDIR

# A make gate that fails in a test is that test's failure: no bisect of
# the series after it (tests/bisect.bats tests bisect on its own).
export BISECT=0

# A private copy of the repository (with its uncommitted state) to run make in.
copy_repo() {
	local dst=$1
	rm -rf "$dst"
	mkdir -p "$dst"
	(cd "$TOP" && tar cf - --exclude=./.git/index.lock .) | (cd "$dst" && tar xf -)
	# In a linked worktree (git worktree add), .git is a file naming the
	# shared repository: the copy's commits would land on the developer's
	# branch. Give the copy a repository of its own.
	if [ -f "$dst/.git" ]; then
		local b head
		b=$(git -C "$TOP" rev-parse --abbrev-ref HEAD)
		head=$(git -C "$TOP" rev-parse HEAD)
		rm "$dst/.git"
		git clone -q --no-checkout --no-local "$(git -C "$TOP" rev-parse --path-format=absolute --git-common-dir)" "$dst/.clone"
		mv "$dst/.clone/.git" "$dst/.git"
		rm -rf "$dst/.clone"
		git -C "$dst" update-ref "refs/heads/$b" "$head"
		git -C "$dst" symbolic-ref HEAD "refs/heads/$b"
		git -C "$dst" reset -q
	fi
	# Commit the copy's state, so it starts clean whatever the developer
	# has uncommitted (CI's clean clone is clean anyway).
	git -C "$dst" add -A
	git -C "$dst" -c user.name=tests -c user.email=tests@localhost \
		commit -q --allow-empty -m "tests: snapshot"
}

# series_copy: setup_file's start for tests that need the branch: a repo
# copy in $R (exported) and the test workdir's tree and branch from it.
series_copy() {
	R=$BATS_FILE_TMPDIR/repo
	export R
	copy_repo "$R"
	mkdir -p "$TEST_WORKDIR"
	mk "$R" tree series >"$BATS_FILE_TMPDIR/series.log" 2>&1
}

# base_copy KV: setup_file's start for the test file of base KV: a repo
# copy in $R and that base's current revision in $REV (both exported).
base_copy() {
	R=$BATS_FILE_TMPDIR/repo
	export R
	copy_repo "$R"
	mkdir -p "$TEST_WORKDIR"
	# shellcheck source=/dev/null
	REV=$(. "$R/series/$1/series.conf" && echo "$SERIES_CURRENT")
	export REV
}

# commit_from REPO TREE PARENT DIR: commit TREE on PARENT as mailinfo's
# DIR/info and DIR/msg say.
commit_from() {
	local info=$4/info
	GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$info") \
		GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$info") \
		GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$info") \
		GIT_COMMITTER_NAME=tests GIT_COMMITTER_EMAIL=tests@localhost \
		GIT_COMMITTER_DATE=$(sed -n 's/^Date: //p' "$info") \
		git -C "$1" commit-tree "$2" -p "$3" -F - \
		< <(sed -n 's/^Subject: //p' "$info"; echo; cat "$4/msg")
}

# commit_patches REPO BASE PATCH...: the commits PATCH... make on BASE, made
# in a scratch index with no checkout (a kernel worktree is over a GiB of
# disk for each fixture); prints the last. Author, date and message are the
# patches' own, as git am takes them, and the committer is fixed: the same
# patches make the same commits, run after run.
commit_patches() {
	local repo=$1 head p tmp tree
	head=$(git -C "$repo" rev-parse --verify "$2^{commit}") || return 1
	shift 2
	tmp=$(mktemp -d)
	GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$head" || { rm -rf "$tmp"; return 1; }
	for p; do
		if ! git -C "$repo" mailinfo "$tmp/msg" "$tmp/diff" <"$p" >"$tmp/info" ||
			! GIT_INDEX_FILE=$tmp/index git -C "$repo" apply --cached "$tmp/diff" ||
			! tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree) ||
			! head=$(commit_from "$repo" "$tree" "$head" "$tmp"); then
			echo "commit_patches: $p does not apply on $head" >&2
			rm -rf "$tmp"
			return 1
		fi
	done
	rm -rf "$tmp"
	echo "$head"
}

# drop_scratch PATH...: teardown_file's end for a file whose kernel trees,
# worktrees and build dirs no later file reads. Each is a GiB or two: kept
# to the end, a CI run's trees took over 20 GiB, and CI's disk is not
# always that large. Worktrees are unregistered from their trees.
# TEST_KEEP=1 keeps them, for a developer running one file again warm.
drop_scratch() {
	local p t
	[ "${TEST_KEEP:-0}" = 1 ] && return 0
	for p; do
		case $p in
		"$TEST_WORKDIR"/?*) rm -rf "$p" ;;
		*) echo "drop_scratch: $p is not in $TEST_WORKDIR" >&2; return 1 ;;
		esac
	done
	for t in "$TEST_WORKDIR"/linux-*; do
		[ -d "$t/.git" ] && git -C "$t" worktree prune
	done
	return 0
}

# save_branch / restore_branch: tests that move b4/safer-fput put it back.
save_branch() {
	tgit rev-parse b4/safer-fput >"$BATS_TEST_TMPDIR/saved-head"
}

restore_branch() {
	local head
	[ -f "$BATS_TEST_TMPDIR/saved-head" ] || return 0
	head=$(cat "$BATS_TEST_TMPDIR/saved-head")
	tgit am --abort >/dev/null 2>&1 || true
	tgit rebase --abort >/dev/null 2>&1 || true
	tgit checkout -q -f b4/safer-fput
	tgit reset -q --hard "$head"
	tgit update-ref refs/safer-fput/synced "$head"
	tgit tag -d "sent/safer-fput-$CUR_REV" >/dev/null 2>&1 || true
}

# mk DIR ARGS...: run make in repo copy DIR against the test workdir, on
# base DEF_KVER unless ARGS name another KVER (the last one given wins).
mk() {
	local dir=$1
	shift
	make -s -C "$dir" WORKDIR="$TEST_WORKDIR" KVER="$DEF_KVER" "$@"
}

tgit() {
	git -C "$TEST_WORKDIR/linux-6.1" "$@"
}

# A fingerprint of everything that may change in a repo copy.
repo_state() {
	(cd "$1" && git status --porcelain && tar cf - series cover-letters | sha256sum)
}

# verdict PREFIX: the last line of $output starting with PREFIX (make adds
# its own "make: *** ... Error" line after a failing target's verdict).
# A FAIL's reproduce command is cut off (and a FAIL without one is
# returned as "NO REPRODUCE: line", so it matches no expected verdict).
verdict() {
	local v
	# shellcheck disable=SC2154 # bats' run sets $output
	v=$(printf '%s\n' "$output" | grep "^$1" | tail -n 1)
	case ${v#*: } in
	"FAIL: "*"; reproduce: make -C "* | "FAIL: "*"; reproduce: "[A-Z]*"="*" make -C "*)
		printf '%s\n' "${v%%; reproduce: *}" ;;
	"FAIL: "*) printf 'NO REPRODUCE: %s\n' "$v" ;;
	*) printf '%s\n' "$v" ;;
	esac
}

# verdict_is REGEX: the verdict is the last line of $output; show the run
# in the TAP output on failure.
verdict_is() {
	local v
	printf '%s\n' "$output" | tail -n 25
	# shellcheck disable=SC2154 # bats' run sets $lines
	v=${lines[-1]}
	# A FAIL ends with the make command that reproduces it.
	if [[ "${v#*: }" == "FAIL: "* ]]; then
		[[ "$v" =~ \;\ reproduce:\ ([A-Z_]+=[^\ ]+\ )*make\ -C\ [^\ ]+\ [a-z-]+\ KVER=[^\ ]+\ ARCH=[^\ ]+ ]] ||
			{ echo "# no reproduce command at the end of: $v"; return 1; }
		v=${v%%; reproduce: *}
	fi
	[[ "$v" =~ $1 ]]
}

# timed CMD...: run CMD and print its duration in the TAP output.
timed() {
	local t0=$SECONDS
	"$@"
	echo "# ${BATS_TEST_DESCRIPTION%%:*}: $((SECONDS - t0)) s" >&3
}
