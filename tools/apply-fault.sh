#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: apply-fault.sh FAULTS.txt NAME OUT.c
# Writes lib/wordmerge.c with the deliberate fault NAME of FAULTS.txt (a sed
# expression, "name | expression" per line) to OUT.c.  Fails unless the
# expression changed exactly one line: a fault that no longer applies must
# not pass for a caught one.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 FAULTS.txt NAME OUT.c" >&2; exit 2; }
faults=$1 name=$2 out=$3
expr=$(awk -F' [|] ' -v n="$name" '$1 == n { sub(/^[^|]*[|] /, ""); print; exit }' "$faults")
[ -n "$expr" ] || { echo "apply-fault: no fault named '$name' in $faults" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
sed -e "$expr" lib/wordmerge.c > "$out"
changed=$(diff lib/wordmerge.c "$out" | grep -c '^>' || true)
if [ "$changed" != 1 ]; then
	echo "apply-fault: fault $name changed $changed lines of lib/wordmerge.c, expected 1 (update $faults)" >&2
	rm -f "$out"
	exit 1
fi
