/* SPDX-License-Identifier: MIT */
/*
 * The references: picolibc's own memcpy/memmove/memset, taken unchanged from
 * Debian's two picolibc builds at build time and renamed with objcopy
 * --redefine-sym (tools/extract-refs.sh), so they link beside ours.
 *   picolibc_size_*:  the default build (libc.a), optimized for size
 *   picolibc_speed_*: --picolibc-buildtype=release, optimized for speed
 */
#ifndef WM_REFS_H
#define WM_REFS_H

#include <stddef.h>

void *picolibc_size_memcpy(void *, const void *, size_t);
void *picolibc_size_memmove(void *, const void *, size_t);
void *picolibc_size_memset(void *, int, size_t);
void *picolibc_speed_memcpy(void *, const void *, size_t);
void *picolibc_speed_memmove(void *, const void *, size_t);
void *picolibc_speed_memset(void *, int, size_t);

#endif /* WM_REFS_H */
