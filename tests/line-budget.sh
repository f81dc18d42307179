#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: [LAYOUT=FILE] line-budget.sh [PATH...]
# The lines git tracks in tools/ and farm/ (and PATH..., for the control)
# against the budget docs/layout.md (or FILE, a control's copy) states, its one
# owner, and against the count it says they hold now.  One PASS:/FAIL: line;
# exit status 1 over the budget or when the page's count is not the tree's, 2
# if the page states no budget or git tracks nothing here.
set -eu
layout=${LAYOUT:-docs/layout.md}
budget=$(sed -n 's/.*at or below \*\*\([0-9,]*\) lines\*\*.*/\1/p' "$layout" | tr -d ,)
[ -n "$budget" ] || { echo "FAIL: line-budget: $layout states no budget"; exit 2; }
said=$(sed -n 's/.*They hold \*\*\([0-9,]*\) lines\*\*.*/\1/p' "$layout" | tr -d ,)
# Outside a git checkout nothing is tracked: an error, not a count of 0.
files=$(git ls-files tools farm "$@") && [ -n "$files" ] ||
	{ echo "FAIL: line-budget: git tracks no file in tools/ farm/ here (not a checkout?)"; exit 2; }
n=$(git ls-files -z tools farm "$@" | xargs -0 cat | wc -l)
if [ $# -eq 0 ] && [ "$said" != "$n" ]; then
	echo "FAIL: line-budget: $layout says tools/ farm/ hold ${said:-no count of} lines," \
		"they hold $n"
	exit 1
elif [ "$n" -le "$budget" ]; then
	echo "PASS: line-budget: tools/ farm/ ${*:+$* }hold $n lines, budget $budget"
else
	echo "FAIL: line-budget: tools/ farm/ ${*:+$* }hold $n lines," \
		"$((n - budget)) over the budget of $budget"
	exit 1
fi
