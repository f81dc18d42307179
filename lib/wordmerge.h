/* SPDX-License-Identifier: MIT */
/*
 * wordmerge: memcpy, memmove and memset that move one machine word at a time
 * and never make a misaligned access.
 *
 * In the RISC-V image the functions carry the standard names, so everything
 * linked into it (picolibc's printf included) runs on them.  On the host they
 * are built with -DWORDMERGE_PREFIX and are called wm_memcpy and so on, so the
 * tests can link them next to the host C library.
 */
#ifndef WORDMERGE_H
#define WORDMERGE_H

#include <stddef.h>

#ifdef WORDMERGE_PREFIX
#define WM_NAME(f) wm_##f
#else
#define WM_NAME(f) f
#endif

void *WM_NAME(memcpy)(void *restrict dst, const void *restrict src, size_t n);
void *WM_NAME(memmove)(void *dst, const void *src, size_t n);
void *WM_NAME(memset)(void *dst, int c, size_t n);

#endif /* WORDMERGE_H */
