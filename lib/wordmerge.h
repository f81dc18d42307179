/* SPDX-License-Identifier: MIT */
/*
 * wordmerge: memcpy, memmove and memset that move one machine word at a time
 * and never make a misaligned access.
 *
 * The functions are called wm_memcpy, wm_memmove and wm_memset, whatever the
 * build, so that a program can link them beside its C library's.  This
 * header is for C and C++, and leaves no macro of its own defined but its
 * include guard.
 *
 * Options of the build of wordmerge.c (they change nothing here):
 * WM_SMALL_CODE=1, the smallest code; WM_EXACT=1 or 0, the source words at
 * a call's ends read byte by byte or whole (wordmerge.c, EDGE); and
 * WORDMERGE_STD_NAMES, more names for the same functions (aliases):
 *   =1: memcpy, memmove and memset, for a program without another C
 *     library's (the RISC-V image: everything linked into it runs on them);
 *   =2: as a Linux architecture's assembly names them: __memcpy, __memmove
 *     and __memset, and memcpy, memmove and memset as weak aliases, which
 *     KASAN's checking versions replace.
 *
 * Inside a Linux kernel tree (__KERNEL__, built without the compiler's own
 * headers) size_t comes from <linux/types.h>.
 */
#ifndef WORDMERGE_H
#define WORDMERGE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

void *wm_memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *wm_memmove(void *dst, const void *src, size_t n);
void *wm_memset(void *dst, int c, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* WORDMERGE_H */
