#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# generate.sh [WORKTREE] - run the semantic patches over the kernel tree and
# commit what they change, one commit per script and MAINTAINERS section, on
# top of whatever WORKTREE has checked out (the branch, or a detached HEAD).
#
# Each changed file is compiled (compile.sh) before anything is committed.
# Generated commits say "Generated with Coccinelle:" in their body, after
# the reviewed safety argument of each site they convert (data/sites), and
# name no script or path of this project: upstream has neither. Those
# already at the tip (in this form or an older one, lib-cocci.sh's
# GENERATED_MARKER) are dropped first, so running it twice gives the same
# result. Author, committer and dates are derived from the last hand-written
# commit, so the same input yields byte-identical commits and patches.
set -euo pipefail
PROG="cocci"
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=lib-cocci.sh
. "$(dirname "$0")/lib-cocci.sh"
workdir_lock

here=$TOP/coccinelle
wt=${1:-${COCCI_TREE:-$TREE}}
# The reviewed safety argument of each site (COCCI_SITES: another file, for
# a tree of test cases).
sites_file=${COCCI_SITES:-$here/data/sites}
scripts=${COCCI_SCRIPTS:-fdget fput_nodefer}
jobs=${COCCI_JOBS:-2}
# A file spatch has not finished in this many seconds is left unconverted.
timeout=${COCCI_TIMEOUT:-120}
# What compiles the files a script changed before they are committed
# (COCCI_COMPILE: another command, for a tree of test cases).
compile=${COCCI_COMPILE:-$here/compile.sh}
[ -d "$wt/.git" ] || [ -f "$wt/.git" ] || die "$wt is not a git work tree"
command -v spatch >/dev/null || die "spatch not found (apt-get install coccinelle)"
wgit() { git -C "$wt" "$@"; }

[ -z "$(wgit status --porcelain --untracked-files=no)" ] ||
	die "$wt has uncommitted changes; commit or stash them first (nothing touched)"

# Whatever fails from here leaves WORKTREE as it was: the generated
# commits dropped below come back, with their trailers.
orig=$(wgit rev-parse HEAD)
ok=
tmp=$(mktemp -d)
trap '[ -n "$ok" ] || wgit reset -q --hard "$orig" ||
	note "could not put $wt back: run git -C $wt reset --hard $orig"; rm -rf "$tmp"' EXIT

# Drop the generated commits at the tip: we regenerate them. The review
# trailers they collected (make trailers) are kept, by subject, for the
# regenerated commit of the same subject.
review='^(Reviewed|Acked|Tested|Reported|Suggested)-by: '
declare -A kept=()
while wgit log -1 --format=%B HEAD | grep -Eq "$GENERATED_MARKER"; do
	kept[$(wgit log -1 --format=%s HEAD)]=$(wgit log -1 --format=%B HEAD | grep -E "$review" || true)
	wgit reset -q --hard HEAD^
done

base=$(wgit rev-parse HEAD)
an=$(wgit log -1 --format=%an "$base")
ae=$(wgit log -1 --format=%ae "$base")
at=$(wgit log -1 --format=%at "$base")
export GIT_AUTHOR_NAME="$an" GIT_AUTHOR_EMAIL="$ae"
n=0

# sites_of FILE...: "FILE FUNCTION" for each function the uncommitted
# change converts in FILE... (the function of each hunk), in order.
sites_of() {
	local f
	for f in "$@"; do
		wgit diff -U0 -- "$f" |
			sed -n 's/^@@ [^@]* @@.*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' |
			awk -v f="$f" '!seen[$0]++ { print f " " $0 }'
	done
}

# site_arguments FILE...: the paragraphs of data/sites for the functions
# the uncommitted change converts in FILE..., in order; dies naming a site
# that has none.
site_arguments() {
	local site text sites=() out=
	mapfile -t sites < <(sites_of "$@")
	for site in "${sites[@]}"; do
		text=$(awk -v h="@ $site" '$0 == h { on = 1; next } /^@ / { on = 0 } on' "$sites_file" |
			sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')
		[ -n "$text" ] ||
			die "no safety argument for ${site% *}: ${site#* }() in $(repo_path "$sites_file"): read the site and write one (nothing committed)"
		out=${out:+$out$'\n\n'}$text
	done
	printf '%s' "$out"
}

for s in $scripts; do
	sp=$here/$s.cocci
	[ -f "$sp" ] || die "no semantic patch $sp"
	if [ "$s" = fput_nodefer ] &&
		! grep -q 'fput_nodefer(struct file' "$wt/include/linux/file.h"; then
		note "skipping $s.cocci: include/linux/file.h does not declare fput_nodefer() (patch 3 missing)"
		continue
	fi
	# The tree's idiom (data/idioms), where the script has one, and the
	# subject of its commits (data/commit/).
	mapfile -t defs < <(cocci_defines "$sp" "$wt")
	msg=$here/data/commit/$s
	[ "${#defs[@]}" -eq 0 ] || [ ! -f "$msg.${defs[1]}" ] || msg=$msg.${defs[1]}
	[ -f "$msg" ] || msg=
	use_summaries "$wt"
	note "running $s.cocci over $wt"
	(cd "$wt" && spatch --very-quiet --sp-file "$sp" --macro-file "$here/macros.h" \
		"${defs[@]}" -D patch --dir . --include-headers --use-gitgrep --jobs "$jobs" --timeout "$timeout" \
		--in-place) >/dev/null 2>"$tmp/$s.log" ||
		die "spatch $s.cocci failed: $(tail -n 1 "$tmp/$s.log")"
	mapfile -t files < <(wgit diff --name-only | sort)
	[ "${#files[@]}" -gt 0 ] || { note "$s.cocci: no conversions"; continue; }
	# Nothing is committed that does not compile.
	"$compile" "$wt" "${files[@]}" >&2 ||
		die "$s.cocci wrote code that does not compile (the compiler's error above); nothing committed, $wt left as it was"
	# One commit per MAINTAINERS section, in section order.
	python3 "$here/sections.py" "$wt/MAINTAINERS" "${files[@]}" | sort -t "$(printf '\t')" -k1,1 -k3,3 >"$tmp/sections"
	mapfile -t secs < <(cut -f1 "$tmp/sections" | uniq)
	for sec in "${secs[@]}"; do
		mapfile -t sfiles < <(awk -F '\t' -v s="$sec" '$1 == s { print $3 }' "$tmp/sections")
		pfx=$(awk -F '\t' -v s="$sec" '$1 == s { print $2; exit }' "$tmp/sections")
		mapfile -t ssites < <(sites_of "${sfiles[@]}")
		one=$(sed -n 2p "${msg:-/dev/null}")
		if [ -n "$one" ] && [ "${#ssites[@]}" -eq 1 ]; then
			subj="$pfx: ${one//%s/${ssites[0]#* }}"
		elif [ -n "$msg" ]; then
			subj="$pfx: $(head -n 1 "$msg")"
		else
			subj="$pfx: apply $s.cocci"
		fi
		# The reviewed argument of every site the commit converts.
		args=$(site_arguments "${sfiles[@]}") || exit 1
		n=$((n + 1))
		d="@$((at + n)) +0000"
		wgit add -f -- "${sfiles[@]}"
		GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" wgit commit -q --no-verify \
			--cleanup=verbatim -F - <<-MSG
		$subj

		$args

		Generated with Coccinelle: the semantic patch checks these conditions
		at every call site and refuses a site it cannot prove; the change is
		its output, not edited by hand.

		${kept[$subj]:+${kept[$subj]}
		}Signed-off-by: $an <$ae>
		MSG
		unset -v 'kept[$subj]'
		note "committed $(wgit log -1 --format=%h) $subj (${#sfiles[@]} files)"
	done
	[ -z "$(wgit status --porcelain --untracked-files=no)" ] ||
		die "files left uncommitted after $s.cocci in $wt"
done
for subj in "${!kept[@]}"; do
	[ -z "${kept[$subj]}" ] ||
		note "warning: '$subj' is not generated any more; its trailers are dropped: ${kept[$subj]//$'\n'/, }"
done
ok=1
note "$n generated commits on $(wgit rev-parse --abbrev-ref HEAD) ($(wgit rev-parse --short HEAD))"
