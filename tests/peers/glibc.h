/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for the parts of glibc's own build that string/mem*.c and
 * wordcopy.c rely on (glibc's include/libc-symbols.h, passed with -include,
 * and its <endian.h>): tests/peers.mk includes it first in each.
 */
#ifndef WM_PEER_GLIBC_STAND_IN_H
#define WM_PEER_GLIBC_STAND_IN_H

#include <endian.h>

/*
 * memcopy.h picks MERGE() by __BYTE_ORDER: glibc's <endian.h> defines it,
 * picolibc's does not (it has BYTE_ORDER), and then both of memcopy.h's
 * #if tests hold and the big-endian MERGE() is the one left.
 */
#ifndef __BYTE_ORDER
#define __LITTLE_ENDIAN __ORDER_LITTLE_ENDIAN__
#define __BIG_ENDIAN __ORDER_BIG_ENDIAN__
#define __BYTE_ORDER __BYTE_ORDER__
#endif

/* Symbol visibility inside libc.so: nothing to hide in a static link. */
#define attribute_hidden
/* libc.so's internal alias of each function: none needed here. */
#define libc_hidden_builtin_def(name)
/* GCC's -fno-tree-loop-distribute-patterns on one function: the whole
   file gets the flag (tests/peers.mk), so that no loop becomes a call. */
#define inhibit_loop_to_libcall

#endif
