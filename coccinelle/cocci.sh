#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cocci.sh - `make cocci`: regenerate the Coccinelle conversions as commits at
# the tip of branch $COCCI_BRANCH (default b4/safer-fput) checked out in
# $COCCI_TREE (default the project's kernel tree), then write the branch back
# to series/$KVER/$REV with scripts/export.sh when that is the project's tree.
set -euo pipefail
PROG="cocci"
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

wt=${COCCI_TREE:-$TREE}
br=${COCCI_BRANCH:-$BRANCH}
[ -e "$wt/.git" ] || die "no kernel tree at $wt (run 'make tree' and 'make series')"
head=$(git -C "$wt" symbolic-ref -q --short HEAD) ||
	die "$wt has a detached HEAD; check out $br first"
[ "$head" = "$br" ] || die "$wt has $head checked out, not $br"

"$TOP/coccinelle/generate.sh" "$wt"

if [ "$wt" = "$TREE" ] && [ "$br" = "$BRANCH" ]; then
	"$TOP/scripts/export.sh"
else
	note "not the project's tree/branch: $(repo_path "$SERIES_DIR/$REV") left alone"
fi
