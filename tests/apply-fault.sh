#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: apply-fault.sh FAULTS.txt NAME OUT
# Writes the file that fault NAME of FAULTS.txt edits ("name | file | sed
# expression" a line), with the fault, to OUT.  Fails unless exactly one
# line of the file changed: a fault that no longer applies must not pass
# for a caught one.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 FAULTS.txt NAME OUT" >&2; exit 2; }
faults=$1 name=$2 out=$3
line=$(awk -F' [|] ' -v n="$name" '$1 == n { print; exit }' "$faults")
[ -n "$line" ] || { echo "apply-fault: no fault named '$name' in $faults" >&2; exit 2; }
file=$(printf '%s\n' "$line" | awk -F' [|] ' '{ print $2 }')
expr=$(printf '%s\n' "$line" | sed 's/^[^|]*| [^|]* | //')
[ -f "$file" ] || { echo "apply-fault: fault $name edits $file, which does not exist" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
sed -e "$expr" "$file" > "$out.tmp"
changed=$(diff "$file" "$out.tmp" | grep -c '^<' || true)
if [ "$changed" != 1 ]; then
	echo "apply-fault: fault $name changed $changed lines of $file, expected 1 (update $faults)" >&2
	rm -f "$out.tmp"
	exit 1
fi
mv "$out.tmp" "$out"
