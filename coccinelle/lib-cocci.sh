#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lib-cocci.sh - sourced by the coccinelle scripts after scripts/lib.sh.
#
# use_summaries TREE: compute pass 1 (summaries.sh) for TREE's HEAD under
# $WORKDIR/cocci (facts cached by content, so a warm run rescans only what
# changed) and export what fdget.cocci and fput_nodefer.cocci read.
use_summaries() {
	local wt=$1 head out
	head=$(git -C "$wt" rev-parse HEAD) || die "$wt is not a git tree"
	out=$WORKDIR/cocci/summaries/$head
	COCCI_CACHE=${COCCI_CACHE:-$WORKDIR/cocci/facts} \
		"$TOP/coccinelle/summaries.sh" "$wt" "$out" >&2 ||
		die "the summaries of $wt could not be computed"
	export SAFER_FPUT_SUMMARIES=$out/summaries.json
	export SAFER_FPUT_DATA=$TOP/coccinelle/data
}

# spatch_gave_up LOG...: the files spatch timed out on, as its LOGs (stdout
# and stderr) name them, one a line, without a leading "./". It says so in
# one of two ways: "timeout (we abort): FILE" when parsing, "EXN:
# ...Timeout in FILE" when matching (seen with spatch 1.1.1, --jobs 1 and 2
# alike). Needs no scripts/lib.sh.
spatch_gave_up() {
	sed -n -E -e 's,^timeout \(we abort\): (\./)?,,p' \
		-e 's,^EXN: [A-Za-z_.]*Timeout in (\./)?,,p' "$@"
}

# cocci_idiom TREE: the virtual rule of data/idioms that TREE's own files
# select (fd_class where include/linux/file.h has CLASS(fd) and the
# fd_file()/fd_empty() accessors), or nothing: the form the conversions take
# there. A rule is selected when every row naming it matches; the first
# such rule in the file wins. Needs no scripts/lib.sh.
cocci_idiom() {
	local tree=$1 v f pat
	local -A bad=()
	local order=()
	while read -r v f pat; do
		case $v in '' | '#'*) continue ;; esac
		[ -n "${bad[$v]+set}" ] || { bad[$v]=; order+=("$v"); }
		if [ ! -f "$tree/$f" ] || ! grep -Eq -- "$pat" "$tree/$f"; then
			bad[$v]=1
		fi
	done <"$(dirname "${BASH_SOURCE[0]}")/data/idioms"
	for v in "${order[@]}"; do
		if [ -z "${bad[$v]}" ]; then
			printf '%s\n' "$v"
			return 0
		fi
	done
}

# cocci_defines SCRIPT.cocci TREE: the spatch arguments that select TREE's
# idiom in SCRIPT, one a line ("-D", then the virtual rule), when SCRIPT
# declares that virtual rule; nothing otherwise.
cocci_defines() {
	local v
	v=$(cocci_idiom "$2")
	if [ -n "$v" ] && grep -qx "virtual $v" "$1"; then
		printf -- '-D\n%s\n' "$v"
	fi
}
