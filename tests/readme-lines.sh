#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: readme-lines.sh [FILE]
# README.md (or FILE, the control's) within the lines docs/layout.md states, its
# one owner.  One PASS:/FAIL: line; exit status 1 over, 2 if the page states no
# bound or the file cannot be read.
set -eu
layout="$(dirname "$0")/../docs/layout.md"
readme=${1:-"$(dirname "$0")/../README.md"}
max=$(sed -n 's/.*README\.md stays within \*\*\([0-9]*\) lines\*\*.*/\1/p' "$layout")
[ -n "$max" ] || { echo "FAIL: readme-lines: $layout states no bound"; exit 2; }
n=$(wc -l < "$readme") || { echo "FAIL: readme-lines: cannot read $readme"; exit 2; }
if [ "$n" -le "$max" ]; then
	echo "PASS: readme-lines: $(basename "$readme") holds $n lines, at most $max"
else
	echo "FAIL: readme-lines: $(basename "$readme") holds $n lines, $((n - max)) over $max"
	exit 1
fi
