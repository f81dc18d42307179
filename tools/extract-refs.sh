#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: extract-refs.sh CROSS_COMPILE PREFIX OUT.o LIBC.A | OBJECT...
# One relocatable object OUT.o with a reference implementation's memcpy,
# memmove and memset renamed PREFIX_memcpy etc. (references between them
# too), so that it links beside ours: from a C library archive, the members
# that define the three (picolibc); or every OBJECT given (the peers that
# tests/peers.mk builds from their sources), with those of the three they
# define.  CROSS_COMPILE '' takes the
# host's binutils.
#
# Where a public name is a weak alias of a strong __NAME (the kernel's
# ENTRY(__memcpy) WEAK(memcpy): one entry once the linker has relaxed the
# alignment between them), __NAME is the one renamed and the alias dropped:
# __NAME carries the function's size, which the report's code sizes read.
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
	lib=$1 objs=
	for sym in memcpy memmove memset; do
		member=$("${cross}nm" -A --defined-only "$lib" 2>/dev/null |
			awk -v s="$sym" '$NF == s && $(NF-1) ~ /^[TW]$/ { n = split($1, a, ":"); print a[n-1]; exit }')
		[ -n "$member" ] || { echo "extract-refs: $lib defines no $sym" >&2; exit 1; }
		(cd "$dir" && "${cross}ar" x "$lib" "$member")
		mv "$dir/$member" "$dir/$sym.o"
		objs="$objs $dir/$sym.o"
	done
	"${cross}ld" -r -o "$dir/all.o" $objs ;;
*)
	"${cross}ld" -r -o "$dir/all.o" "$@" ;;
esac
# Objects may lack one of the three (newlib's riscv memset, assembly, is
# not in the host's): the link says so if it is wanted.
defined=$("${cross}nm" --defined-only "$dir/all.o")
set --
for sym in memcpy memmove memset; do
	printf '%s\n' "$defined" | awk -v s="$sym" '$NF == s || $NF == "__" s { f = 1 } END { exit !f }' ||
		continue
	if printf '%s\n' "$defined" | awk -v s="__$sym" '$NF == s && $(NF-1) ~ /^[A-Z]$/ { f = 1 } END { exit !f }'; then
		set -- "$@" --redefine-sym "__$sym=${prefix}_$sym" --strip-symbol "$sym"
	else
		set -- "$@" --redefine-sym "$sym=${prefix}_$sym"
	fi
done
# Their other global functions (glibc's _wordcopy_* helpers) get the prefix
# too: no clash with another implementation's, and the report counts every
# PREFIX_ function in the implementation's code size.
for sym in $(printf '%s\n' "$defined" | awk '$(NF-1) == "T" { print $NF }'); do
	case $sym in memcpy|memmove|memset|__memcpy|__memmove|__memset|"${prefix}"_*) ;;
	*) set -- "$@" --redefine-sym "$sym=${prefix}_$sym" ;;
	esac
done
"${cross}objcopy" "$@" "$dir/all.o" "$out"
