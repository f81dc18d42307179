#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: extract-refs.sh CROSS_COMPILE LIBC.A PREFIX OUT.o
# Takes the objects defining memcpy, memmove and memset out of a picolibc
# libc.a, renames the three symbols to PREFIX_memcpy etc. (references between
# them too) and links them into one relocatable object OUT.o.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 CROSS_COMPILE LIBC.A PREFIX OUT.o" >&2; exit 2; }
cross=$1 lib=$2 prefix=$3 out=$4
[ -f "$lib" ] || { echo "extract-refs: no such archive: $lib (is picolibc-riscv64-unknown-elf installed?)" >&2; exit 1; }
dir=$(mktemp -d "${out%.o}.XXXXXX")
trap 'rm -rf "$dir"' EXIT
objs=
for sym in memcpy memmove memset; do
	member=$("${cross}nm" -A --defined-only "$lib" 2>/dev/null |
		awk -v s="$sym" '$NF == s && $(NF-1) ~ /^[TW]$/ { n = split($1, a, ":"); print a[n-1]; exit }')
	[ -n "$member" ] || { echo "extract-refs: $lib defines no $sym" >&2; exit 1; }
	(cd "$dir" && "${cross}ar" x "$lib" "$member")
	mv "$dir/$member" "$dir/$sym.o"
	objs="$objs $dir/$sym.o"
done
"${cross}ld" -r -o "$dir/all.o" $objs
"${cross}objcopy" --redefine-sym memcpy="${prefix}_memcpy" \
	--redefine-sym memmove="${prefix}_memmove" \
	--redefine-sym memset="${prefix}_memset" "$dir/all.o" "$out"
