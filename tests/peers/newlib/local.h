/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for newlib's libc/string/local.h (tests/peers.mk puts it in its
 * place in the extracted tree): the real one pulls in newlib's locale and
 * ctype internals; memcpy.c and memmove.c use one macro of it.
 */
/* GCC's -fno-tree-loop-distribute-patterns on one function (picolibc's
   <sys/cdefs.h> defines it already): the whole file gets the flag. */
#ifndef __inhibit_loop_to_libcall
#define __inhibit_loop_to_libcall
#endif
