#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: fault-check.sh OUTDIR FAULTS.txt CC [CFLAGS...]
# For each "name | sed expression" line of FAULTS.txt: copy lib/wordmerge.c
# to OUTDIR/name/, apply the expression (it must change exactly one line),
# build the host suite with it (CC CFLAGS) and require the suite to fail.
# Prints PASS:/FAIL: per fault and a SUMMARY: line; exits 1 if any fault was
# not caught or did not apply.
set -u
[ $# -ge 3 ] || { echo "usage: $0 OUTDIR FAULTS.txt CC [CFLAGS...]" >&2; exit 2; }
out=$1 faults=$2
shift 2
[ -f "$faults" ] || { echo "fault-check: no such file: $faults" >&2; exit 2; }
total=0 bad=0
while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	name=$(printf '%s' "${line%%|*}" | tr -d ' ')
	expr=$(printf '%s' "${line#*|}" | sed 's/^ //')
	total=$((total + 1))
	dir=$out/$name
	mkdir -p "$dir"
	sed -e "$expr" lib/wordmerge.c > "$dir/wordmerge.c"
	changed=$(diff lib/wordmerge.c "$dir/wordmerge.c" | grep -c '^>')
	if [ "$changed" != 1 ]; then
		echo "FAIL: fault $name changed $changed lines of lib/wordmerge.c, expected 1 (update $faults)"
		bad=$((bad + 1))
		continue
	fi
	if ! "$@" -DWORDMERGE_PREFIX -Ilib -o "$dir/suite" "$dir/wordmerge.c" \
		tests/suite.c tests/host_main.c > "$dir/build.log" 2>&1; then
		echo "FAIL: fault $name does not build:"; cat "$dir/build.log"
		bad=$((bad + 1))
		continue
	fi
	if "$dir/suite" > "$dir/run.log" 2>&1; then
		echo "FAIL: fault $name was NOT caught: the suite passed with it (log: $dir/run.log)"
		bad=$((bad + 1))
	else
		first=$(grep -m1 -E '^FAIL:|runtime error' "$dir/run.log")
		echo "PASS: fault $name caught: $first"
	fi
done < "$faults"
echo "SUMMARY: $total faults, $((total - bad)) caught, $bad not caught"
[ "$total" -gt 0 ] && [ "$bad" = 0 ]
