#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: fault-check.sh OUTDIR FAULTS.txt CC [CFLAGS...]
# For each "name | sed expression" line of FAULTS.txt: write lib/wordmerge.c
# with that fault to OUTDIR/name/ (tools/apply-fault.sh), build the host
# suite and tests/bounds.c with it (CC CFLAGS) and require one to fail.
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
	total=$((total + 1))
	dir=$out/$name
	if ! msg=$(tools/apply-fault.sh "$faults" "$name" "$dir/wordmerge.c" 2>&1); then
		echo "FAIL: $msg"
		bad=$((bad + 1))
		continue
	fi
	if ! { "$@" -DWORDMERGE_PREFIX -Ilib -o "$dir/suite" "$dir/wordmerge.c" \
		tests/suite.c tests/host_main.c &&
		"$@" -DWORDMERGE_PREFIX -Ilib -o "$dir/bounds" "$dir/wordmerge.c" \
		tests/bounds.c; } > "$dir/build.log" 2>&1; then
		echo "FAIL: fault $name does not build:"; cat "$dir/build.log"
		bad=$((bad + 1))
		continue
	fi
	if { "$dir/suite" && "$dir/bounds"; } > "$dir/run.log" 2>&1; then
		echo "FAIL: fault $name was NOT caught: the suite and the bounds test passed with it (log: $dir/run.log)"
		bad=$((bad + 1))
	else
		first=$(grep -m1 -E '^FAIL:|ERROR: AddressSanitizer|runtime error' "$dir/run.log")
		echo "PASS: fault $name caught: $first"
	fi
done < "$faults"
echo "SUMMARY: $total faults, $((total - bad)) caught, $bad not caught"
[ "$total" -gt 0 ] && [ "$bad" = 0 ]
