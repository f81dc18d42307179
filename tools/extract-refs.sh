#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: extract-refs.sh CROSS_COMPILE PREFIX OUT.o LIBC.A | OBJECT...
# One relocatable object OUT.o with a reference implementation's memcpy,
# memmove and memset renamed PREFIX_memcpy etc., so that it links beside ours:
# from a C library archive, the members that define the three (picolibc); or
# every OBJECT given (tests/peers.mk's).  CROSS_COMPILE '' takes the host's
# binutils.  What is renamed, and why: docs/peers.md.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 CROSS_COMPILE PREFIX OUT.o LIBC.A|OBJECT..." >&2; exit 2; }
cross=$1 prefix=$2 out=$3
shift 3
for f in "$@"; do
	[ -f "$f" ] || { echo "extract-refs: no such file: $f (is its package installed?)" >&2; exit 1; }
done
dir=$(mktemp -d "${out%.o}.XXXXXX")
trap 'rm -rf "$dir"' EXIT
case $1 in
*.a)
	lib=$1
	shift
	for sym in memcpy memmove memset; do
		member=$("${cross}nm" -A --defined-only "$lib" 2>/dev/null |
			awk -v s="$sym" '$NF == s && $(NF-1) ~ /^[TW]$/ { n = split($1, a, ":"); print a[n-1]; exit }')
		[ -n "$member" ] || { echo "extract-refs: $lib defines no $sym" >&2; exit 1; }
		(cd "$dir" && "${cross}ar" x "$lib" "$member")
		mv "$dir/$member" "$dir/$sym.o"
		set -- "$@" "$dir/$sym.o"
	done ;;
esac
"${cross}ld" -r -o "$dir/all.o" "$@"
# Objects may lack one of the three (newlib's riscv memset, assembly, is
# not in the host's): the link says so if it is wanted.
defined=$("${cross}nm" --defined-only "$dir/all.o")
set --
for sym in memcpy memmove memset; do
	printf '%s\n' "$defined" | awk -v s="$sym" '$NF == s || $NF == "__" s { f = 1 } END { exit !f }' ||
		continue
	if printf '%s\n' "$defined" |
		awk -v s="__$sym" '$NF == s && $(NF-1) ~ /^[A-Z]$/ { f = 1 } END { exit !f }'; then
		set -- "$@" --redefine-sym "__$sym=${prefix}_$sym" --strip-symbol "$sym"
	else
		set -- "$@" --redefine-sym "$sym=${prefix}_$sym"
	fi
done
# Their other global functions get the prefix too (docs/peers.md).
for sym in $(printf '%s\n' "$defined" | awk '$(NF-1) == "T" { print $NF }'); do
	case $sym in memcpy|memmove|memset|__memcpy|__memmove|__memset|"${prefix}"_*) ;;
	*) set -- "$@" --redefine-sym "$sym=${prefix}_$sym" ;;
	esac
done
"${cross}objcopy" "$@" "$dir/all.o" "$out"
