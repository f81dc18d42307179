#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: dropin.sh LIBDIR CC CXX SCRATCH
# lib taken into another project as it is: copies only LIBDIR's wordmerge.c
# and wordmerge.h into SCRATCH and, with compiler CC (C) and CXX (C++),
# builds and runs a C program at every C standard and a C++ program at every
# C++ standard that lib claims, each calling wm_memcpy, wm_memmove and
# wm_memset beside <string.h>'s memcpy, with no macro defined and
# -pedantic -Wall -Wextra -Werror; that wordmerge.h leaves no macro of its
# own defined, nor lib's object a C library name; and that lib builds amid
# the macros and types a Linux kernel tree defines.  One "PASS: dropin ..."
# line a check, or FAIL: with the compiler's first lines; exit status 1 if
# any failed.
set -u
[ $# -eq 4 ] || { echo "usage: $0 LIBDIR CC CXX SCRATCH" >&2; exit 2; }
lib=$1 cc=$2 cxx=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir" && cp "$lib/wordmerge.c" "$lib/wordmerge.h" "$dir/" || exit 2
cd "$dir" || exit 2
WARN="-pedantic -Wall -Wextra -Werror -O2"

# The program, one text for C and C++: before.* includes wordmerge.h first,
# after.* <string.h> first (C++: before.cc takes <cstring>, after.cc
# <string.h>).  lib's functions must agree with the C library's and be
# other functions: the names never clash.
cat > check.inc <<'EOF'
typedef void *(*copy_fn)(void *, const void *, size_t);
int check(copy_fn ours, copy_fn theirs);
#ifdef CHECK_BODY
int check(copy_fn ours, copy_fn theirs)
{
	unsigned char src[300], a[300], b[300];
	size_t i, n;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (n = 0; n < 280; n += 13) {
		memset(a, 0, sizeof(a));
		wm_memset(b, 0, sizeof(b));
		if (ours(a + 3, src + 1, n) != a + 3 || theirs(b + 3, src + 1, n) != b + 3 ||
		    memcmp(a, b, sizeof(a)))
			return 1;
		wm_memmove(a + 1, a + 5, n);
		memmove(b + 1, b + 5, n);
		if (memcmp(a, b, sizeof(a)))
			return 1;
	}
	return ours == theirs;
}
#else
#include <stdio.h>

int main(void)
{
	int bad = check(wm_memcpy, memcpy);

	printf("%s\n", bad ? "wrong" : "ok");
	return bad;
}
#endif
EOF
printf '%s\n' '#include "wordmerge.h"' '#include <string.h>' '#define CHECK_BODY' \
	'#include "check.inc"' > before.c
printf '%s\n' '#include "wordmerge.h"' '#include <cstring>' 'using std::memcmp;' \
	'using std::memmove;' 'using std::memset;' '#define CHECK_BODY' '#include "check.inc"' > before.cc
printf '%s\n' '#include <string.h>' '#include "wordmerge.h"' '#include "check.inc"' > after.c
cp after.c after.cc

rc=0
# $1: what (for the PASS:/FAIL: line); the rest: the build.  Then the run.
build_run() {
	what=$1; shift
	if ! "$@" > build.log 2>&1; then
		echo "FAIL: dropin $what: does not build:"; head -n 5 build.log; rc=1; return
	fi
	if [ -s build.log ]; then
		echo "FAIL: dropin $what: warnings:"; head -n 5 build.log; rc=1; return
	fi
	out=$(./prog 2>&1); st=$?
	if [ $st -ne 0 ] || [ "$out" != ok ]; then
		echo "FAIL: dropin $what: the program says '$out', status $st"; rc=1; return
	fi
	echo "PASS: dropin $what: wm_memcpy beside the C library's memcpy"
}
# The header leaves no macro of its own but its guard, in C and in C++.
for lang in c c++; do
	printf '#include <stddef.h>\n' | $cc -dM -E -x $lang - | sort > macros.std
	printf '#include "wordmerge.h"\n' | $cc -dM -E -x $lang - | sort > macros.wm
	left=$(comm -13 macros.std macros.wm | grep -v '^#define WORDMERGE_H $' | tr '\n' ' ')
	if [ -n "$left" ]; then echo "FAIL: dropin $cc -x $lang: wordmerge.h leaves $left"; rc=1
	else echo "PASS: dropin $cc -x $lang: wordmerge.h leaves no macro but WORDMERGE_H"; fi
done
for std in c99 c11 c17 c2x; do
	build_run "$cc -std=$std C" $cc -std=$std $WARN -o prog wordmerge.c before.c after.c
done
# lib amid its includer's macros and types, as in a Linux kernel tree, which
# defines noinline as a macro and u32, u16 as types: lib spells its
# attributes with underscores and names its own types wm_.
printf '%s\n' '#define noinline __attribute__((__noinline__))' \
	'#define may_alias no_such_attribute' '#define no_builtin no_such_attribute' \
	'#define alias no_such_attribute' '#define weak no_such_attribute' \
	'typedef unsigned int u32;' 'typedef unsigned short u16;' > includer.h
for names in 0 1 2; do
	if $cc -std=gnu11 -Wall -Wextra -Werror -O2 -include includer.h -DWORDMERGE_STD_NAMES=$names \
		-c wordmerge.c -o includer.o > build.log 2>&1; then
		echo "PASS: dropin $cc: lib amid an includer's macros, WORDMERGE_STD_NAMES=$names"
	else
		echo "FAIL: dropin $cc: lib amid an includer's macros, WORDMERGE_STD_NAMES=$names:"
		head -n 5 build.log; rc=1
	fi
done
# lib inside a kernel tree (__KERNEL__, no compiler headers): its types from
# <linux/types.h>; and in a 32-bit kernel the 32-bit forms of END and START,
# although a kernel's UINTPTR_MAX, (~0UL), reads as 64-bit in #if.
mkdir -p kinc/linux
printf '%s\n' 'typedef unsigned long size_t, uintptr_t;' 'typedef unsigned int uint32_t;' \
	'typedef unsigned short uint16_t;' '#define UINTPTR_MAX (~0UL)' > kinc/linux/types.h
cp kinc/linux/types.h kinc/linux/limits.h
for bits in 32 64; do
	want='((T)((unsigned char *)(p) + (n)))'
	[ $bits = 64 ] || want='((T)((uintptr_t)(p) + (n)))'
	if $cc -m$bits -D__KERNEL__ -nostdinc -Ikinc -E -dM wordmerge.c > kernel.log 2>&1 &&
		grep -qxF "#define END(T,p,n) $want" kernel.log; then
		echo "PASS: dropin $cc: lib in a $bits-bit kernel tree takes END's $bits-bit form"
	else
		echo "FAIL: dropin $cc: lib in a $bits-bit kernel tree: END is not $want:"
		grep -m1 -e 'define END' -e error kernel.log; rc=1
	fi
done
# lib itself is C: the C++ program links its C object.
if $cc -std=c11 $WARN -c wordmerge.c -o wordmerge.o > lib.log 2>&1; then
	# Without the option, lib defines none of the C library's names.
	std=$(nm -g --defined-only wordmerge.o | awk '$3 ~ /^(__)?mem(cpy|move|set)$/ { print $3 }')
	[ -z "$std" ] || { echo "FAIL: dropin $cc: lib defines" $std; rc=1; }
	for std in c++11 c++14 c++17 c++20; do
		build_run "$cxx -std=$std C++" $cxx -std=$std $WARN -o prog before.cc after.cc wordmerge.o
	done
else
	echo "FAIL: dropin $cc: lib does not build for the C++ program:"; head -n 5 lib.log; rc=1
fi
exit $rc
