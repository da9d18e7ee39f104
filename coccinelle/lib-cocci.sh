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
