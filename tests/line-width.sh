#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: line-width.sh [FILE...]
# No line of a code or configuration file git tracks here is wider than the
# columns docs/layout.md states, its one owner.  Such a file: C, assembly,
# Python, shell, make, linker scripts, the tests' tables, YAML, INI, Kbuild
# and kunitconfig by name, and any script by its #! line; not Markdown, not
# data (hash lists, fleet profiles, target tables, faults.txt).  FILE...: those
# files instead (the controls).  A column is a character (a tab is one, as
# awk counts).  A FAIL: line for every wider line, then one PASS:/FAIL: line;
# exit status 1 with a wider line, 2 if the page states no width.
set -eu
layout="$(dirname "$0")/../docs/layout.md"
width=$(sed -n 's/.*is wider than \*\*\([0-9]*\) columns\*\*.*/\1/p' "$layout")
[ -n "$width" ] || { echo "FAIL: line-width: $layout states no width"; exit 2; }
if [ $# -eq 0 ]; then
	files=$(git ls-files) && [ -n "$files" ] ||
		{ echo "FAIL: line-width: git tracks no file here (not a checkout?)"; exit 2; }
	for f in $files; do
		case "$f" in
		*.c | *.h | *.S | *.s | *.py | *.sh | *.mk | *.ld | *.cfg | *.yaml | *.ini) ;;
		Makefile | */Makefile | */Kbuild | */kunitconfig) ;;
		*) [ "$(head -c 2 "$f")" = "#!" ] || continue ;;
		esac
		set -- "$@" "$f"
	done
fi
[ $# -gt 0 ] || { echo "FAIL: line-width: no file to read"; exit 2; }
# Characters, not bytes, whatever the caller's locale (tests.cfg holds an en dash).
LC_ALL=C.UTF-8 awk -v w="$width" '
	FNR == 1 { files++ }
	length > w {
		printf "FAIL: line-width: %s:%d: %d columns\n", FILENAME, FNR, length
		bad++
		if (!(FILENAME in seen)) {
			seen[FILENAME]
			wide++
		}
	}
	END {
		if (bad) {
			printf "FAIL: line-width: %d lines wider than %d columns, in %d of %d files\n",
				bad, w, wide, files
			exit 1
		}
		printf "PASS: line-width: %d files, no line wider than %d columns\n", files, w
	}' "$@"
