#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# summaries.sh TREE OUT [FILE...] - pass 1 of the safer-fput analysis: compute
# the function summaries fdget.cocci and fput_nodefer.cocci decide with, into
# OUT/summaries.json.
#
# In a git tree, round 0 scans the files with an fget()/fput() call (with
# COCCI_SUMMARY_ROOTS, a file of function names: the files of
# COCCI_SUMMARY_FILES and those defining the names, whose locked summaries
# are then the ones followed: coccinelle/audit.sh's callees); each next
# round scans the files that define the callees the summaries still wait for
# (summaries.cocci's finalize names them in OUT/wanted), until none is left or
# COCCI_ROUNDS (12) rounds ran. Git grep only picks the files to scan (as
# spatch --use-gitgrep does); what a function does is read from the parse.
# The facts of a file are cached by its content under COCCI_CACHE, so a warm
# run scans only what changed. With FILEs (the tests), only those are scanned,
# and a callee none of them defines has no body. A file spatch has not parsed
# in COCCI_TIMEOUT (120) seconds defines nothing: its callers stay unknown.
#
# Prints one progress line per round and ends with
#   summaries: <N> functions, <R> rounds, <F> files scanned (<C> cached), <T> s
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PROG=summaries
# shellcheck source=lib-cocci.sh
. "$here/lib-cocci.sh"
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: summaries.sh TREE OUT [FILE...]"
tree=$1
out=$2
shift 2
rounds=${COCCI_ROUNDS:-12}
jobs=${COCCI_JOBS:-2}
cache=${COCCI_CACHE:-}
[ -d "$tree" ] || die "no tree at $tree"
[ -z "$cache" ] || mkdir -p "$cache"
command -v spatch >/dev/null || die "spatch not found (apt-get install coccinelle)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/facts" "$out/searched" "$out/wanted" "$out/summaries.json" "$out/macros"
mkdir -p "$out/facts"
: >"$out/searched"
: >"$out/scanned"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty.c"
t0=$(date +%s)

export SAFER_FPUT_DATA=$here/data SAFER_FPUT_SOLVER=$here/solver.py
# Facts depend on the file and on what extracts them.
tool=$(cat "$here/summaries.cocci" "$here/macros.h" "$here/data/locks" | sha1sum | cut -c1-40)

# scan ROUND FILE...: write the facts of FILEs (paths relative to $tree) to
# $out/facts/ROUND, from the cache where it has them. $mode is the rule set
# (facts, or wrappers with SAFER_FPUT_WRAPPERS naming the wrappers it looks
# for) and $modekey what else than the file its facts depend on.
nscanned=0
ncached=0
mode=facts
modekey=
scan() {
	local r=$1 f key
	shift
	local dir=$out/facts/$r
	mkdir -p "$dir" "$tmp/$r"
	: >"$tmp/$r.todo"
	if [ -n "$cache" ] && [ $# -gt 0 ]; then
		mkdir -p "$cache"
		# The key is the file's path and content: facts name their file.
		paste <(printf '%s\n' "$@") <(cd "$tree" && git hash-object --stdin-paths < <(printf '%s\n' "$@")) >"$tmp/$r.keys"
		while IFS=$'\t' read -r f key; do
			key=$(printf '%s %s %s %s %s' "$tool" "$mode" "$modekey" "$f" "$key" | sha1sum | cut -c1-40)
			if [ -f "$cache/$key" ]; then
				cat "$cache/$key" >>"$dir/facts.cached"
				ncached=$((ncached + 1))
			else
				printf '%s\t%s\n' "$f" "$key" >>"$tmp/$r.todo"
			fi
		done <"$tmp/$r.keys"
	else
		for f in "$@"; do printf '%s\t-\n' "$f" >>"$tmp/$r.todo"; done
	fi
	local todo=()
	mapfile -t todo < <(cut -f1 "$tmp/$r.todo")
	[ ${#todo[@]} -gt 0 ] || todo=("$tmp/empty.c")
	# One group per file: spatch then parses and times out each alone.
	printf '%s\n\n' "${todo[@]}" >"$tmp/$r.groups"
	(cd "$tree" && SAFER_FPUT_FACTS="$tmp/$r" \
		spatch --very-quiet --sp-file "$here/summaries.cocci" \
		--macro-file "$here/macros.h" -D "$mode" --no-includes --include-headers \
		--timeout "${COCCI_TIMEOUT:-120}" --jobs "$jobs" --file-groups "$tmp/$r.groups") >"$tmp/$r.log" 2>&1 || {
		tail -n 5 "$tmp/$r.log" >&2
		die "spatch summaries.cocci -D $mode failed in round $r"
	}
	nscanned=$((nscanned + ${#todo[@]}))
	[ "${todo[0]}" = "$tmp/empty.c" ] && nscanned=$((nscanned - 1))
	cat "$tmp/$r"/facts.* >"$dir/facts.new" 2>/dev/null || : >"$dir/facts.new"
	if [ -n "$cache" ]; then
		# One cache entry per scanned file, empty when it defines nothing.
		awk -F '\t' -v c="$cache" 'NR == FNR { k[$1] = $2; next }
			($2 in k) { print > (c "/" k[$2] ".tmp") }' "$tmp/$r.todo" "$dir/facts.new"
		# What spatch gave up on is not cached: it defines nothing this
		# time because of the timeout, and a run with more time, or less
		# load, must scan it again.
		spatch_gave_up "$tmp/$r.log" >"$tmp/$r.gaveup"
		while IFS=$'\t' read -r f key; do
			[ "$key" = - ] && continue
			if grep -qxF -e "$f" "$tmp/$r.gaveup"; then
				rm -f "$cache/$key.tmp"
				continue
			fi
			if [ -f "$cache/$key.tmp" ]; then mv "$cache/$key.tmp" "$cache/$key"; else : >"$cache/$key"; fi
		done <"$tmp/$r.todo"
	fi
	[ "$mode" != facts ] || printf '%s\n' "$@" >>"$out/scanned"
}

# solve: run the finalize rule over all facts so far (no file to scan).
solve() {
	(cd "$tree" && SAFER_FPUT_FACTS="$tmp" SAFER_FPUT_SOLVE="$out" \
		spatch --very-quiet --sp-file "$here/summaries.cocci" -D facts \
		"$tmp/empty.c") >"$tmp/solve.log" 2>&1 ||
		{ tail -n 5 "$tmp/solve.log" >&2; die "summaries.cocci could not solve"; }
}

# def_index: print the path of "NAME<TAB>FILE" lines, one per line of the
# tree that starts with a word and may begin a definition of NAME (the last
# word before the first parenthesis, or the name in SYSCALL_DEFINEn(NAME).
# It only picks the files a round scans; spatch then finds the definitions.
# The same pass writes PATH.fnmacros, the function-like macros of the tree:
# their bodies are not analysed (a call of one is taken to do what its
# arguments do), so they are not "no body" callees; a name that is both a
# macro and a function with a body is the function. An object-like macro
# (#define NAME value: millions of register names) is never called, and one
# that names a function (#define foo bar) leaves foo() with no body, which
# is unknown, as it should be. Built once per commit under COCCI_CACHE (about
# a minute: the slowest step of a cold run).
def_index() {
	local head idx
	head=$(git -C "$tree" rev-parse HEAD)
	idx=${cache:-$tmp}/index-$head
	if [ ! -s "$idx" ] || [ ! -s "$idx.fnmacros" ]; then
		# A static function of a .c file is only called from that file
		# (found there in the same round), and a line ending with ";"
		# is a declaration: neither is a place to look for a callee.
		git -C "$tree" grep -E '^[A-Za-z_][A-Za-z0-9_ *]*\(' -- '*.c' '*.h' ':!tools/' |
			awk -F: '$1 ~ /\.c$/ && $2 ~ /^static[ \t]/ { next }
				/;[ \t]*$/ { next }
				{ l = $0; sub(/^[^:]*:/, "", l); sub(/\(.*/, "", l)
				n = split(l, w, /[ *]+/); name = w[n]
				if (name ~ /^(COMPAT_)?SYSCALL_DEFINE[0-6]$/) {
					r = $0; sub(/^[^(]*\(/, "", r); sub(/[,)].*/, "", r); name = r
				}
				print name "\t" $1 }' | sort -u >"$idx.tmp"
		# (Two greps: one with both patterns took eight times as long here.)
		git -C "$tree" grep -h -E '^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z0-9_]*\(' \
			-- '*.c' '*.h' ':!tools/' | macros >"$idx.fnmacros"
		mv "$idx.tmp" "$idx"
	fi
	printf '%s\n' "$idx"
}

# macros [FILE...]: the function-like macros FILEs (or stdin) define.
macros() {
	{ grep -h -o -E '^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z0-9_]*\(' "$@" |
		sed -E 's/.*define[[:space:]]+//; s/\($//' || true; } | sort -u
}

if [ $# -gt 0 ]; then
	(cd "$tree" && macros "$@") >"$out/macros"
	scan 0 "$@"
	solve
	# Nothing else will be scanned: every callee still wanted has no body.
	cp "$out/wanted" "$out/searched"
	solve
	r=1
else
	git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 || die "$tree is not a git tree"
	index=$(def_index)
	if [ -n "${COCCI_SUMMARY_ROOTS:-}" ]; then
		# The audit's summaries: round 0 scans the files it read
		# (COCCI_SUMMARY_FILES: their static callees are defined there)
		# and the files defining the callees it names; the locked
		# summaries are followed from those callees only.
		mapfile -t files < <({ cat "${COCCI_SUMMARY_FILES:-/dev/null}"
			awk -F '\t' 'NR == FNR { want[$1]; next } ($1 in want) { print $2 }' \
				"$COCCI_SUMMARY_ROOTS" "$index"; } | sort -u)
		export SAFER_FPUT_ROOTS=$COCCI_SUMMARY_ROOTS
	else
		mapfile -t files < <(git -C "$tree" grep -l -P '\bf(get|put)\s*\(' -- '*.c' '*.h')
	fi
	cp "$index.fnmacros" "$out/macros"
	r=0
	while :; do
		printf 'summaries: round %d: scanning %d files (at %d s)\n' "$r" "${#files[@]}" "$(($(date +%s) - t0))"
		scan "$r" "${files[@]}"
		solve
		r=$((r + 1))
		comm -23 <(sort -u "$out/wanted") <(sort -u "$out/searched") >"$tmp/names"
		[ -s "$tmp/names" ] || break
		[ "$r" -lt "$rounds" ] || {
			printf 'summaries: stopped after %d rounds, %d callees not scanned (they stay unknown)\n' \
				"$r" "$(wc -l <"$tmp/names")"
			break
		}
		cat "$tmp/names" >>"$out/searched"
		mapfile -t files < <(awk -F '\t' 'NR == FNR { want[$1]; next }
			($1 in want) { print $2 }' "$tmp/names" "$index" |
			sort -u | comm -23 - <(sort -u "$out/scanned"))
		[ ${#files[@]} -gt 0 ] || { solve; break; }
	done
fi
# Lock wrappers: a call of a function that may return with a lock held,
# with a path to the end that releases nothing, makes its caller one too.
# What counts as a release (a call of data/locks' releases or of a function
# that calls one, wrappers.unlock) comes from the facts and does not change
# between these rounds, so the facts found for a wrapper stay true: each
# round scans only the files that call a wrapper new in the last solve,
# until no new one appears.
w=0
: >"$tmp/wrappers.prev"
wrounds=${COCCI_WRAPPER_ROUNDS:-3}
export SAFER_FPUT_WRAPPERS=$tmp/wnew
while ! cmp -s "$out/wrappers" "$tmp/wrappers.prev"; do
	if [ "$w" -ge "$wrounds" ]; then
		printf 'summaries: lock wrappers: stopped after %d rounds; callers of the last %d are not followed (fput_nodefer() still asserts with lockdep)\n' \
			"$w" "$(comm -13 "$tmp/wrappers.prev" "$out/wrappers" | wc -l)"
		break
	fi
	comm -13 "$tmp/wrappers.prev" "$out/wrappers" >"$tmp/wnew"
	cp "$out/wrappers.unlock" "$tmp/wnew.unlock"
	cp "$out/wrappers" "$tmp/wrappers.prev"
	mapfile -t wfiles < <(cd "$tree" && { sort -u "$out/scanned" |
		xargs -r grep -l -w -F -f "$tmp/wnew" -- 2>/dev/null || true; })
	printf 'summaries: lock wrappers round %d: %d new wrappers, %d files call one (at %d s)\n' \
		"$w" "$(wc -l <"$tmp/wnew")" "${#wfiles[@]}" "$(($(date +%s) - t0))"
	[ ${#wfiles[@]} -gt 0 ] || break
	mode=wrappers
	modekey=$(cat "$tmp/wnew" "$tmp/wnew.unlock" | sha1sum | cut -c1-40)
	scan "wrappers$w" "${wfiles[@]}"
	mode=facts
	modekey=
	solve
	w=$((w + 1))
done
n=$(cat "$out/functions")
printf 'summaries: %d functions, %d rounds, %d files scanned (%d cached), %d s\n' \
	"$n" "$r" "$nscanned" "$ncached" "$(($(date +%s) - t0))"
