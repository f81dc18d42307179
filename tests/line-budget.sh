#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: line-budget.sh [PATH...]
# The lines git tracks in tools/ and farm/ (and PATH..., for the control)
# against the budget docs/layout.md states, its one owner.  One PASS:/FAIL:
# line; exit status 1 over the budget, 2 if the page states none or git
# tracks nothing here.
set -eu
budget=$(sed -n 's/.*at or below \*\*\([0-9,]*\) lines\*\*.*/\1/p' docs/layout.md | tr -d ,)
[ -n "$budget" ] || { echo "FAIL: line-budget: docs/layout.md states no budget"; exit 2; }
# Outside a git checkout nothing is tracked: an error, not a count of 0.
files=$(git ls-files tools farm "$@") && [ -n "$files" ] ||
	{ echo "FAIL: line-budget: git tracks no file in tools/ farm/ here (not a checkout?)"; exit 2; }
n=$(git ls-files -z tools farm "$@" | xargs -0 cat | wc -l)
if [ "$n" -le "$budget" ]; then
	echo "PASS: line-budget: tools/ farm/ ${*:+$* }hold $n lines, budget $budget"
else
	echo "FAIL: line-budget: tools/ farm/ ${*:+$* }hold $n lines," \
		"$((n - budget)) over the budget of $budget"
	exit 1
fi
