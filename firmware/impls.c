// SPDX-License-Identifier: MIT
/* The implementations' table (impls.h). */
#include <stdint.h>
#include <string.h>

#include "impls.h"

void *picolibc_size_memcpy(void *, const void *, size_t);
void *picolibc_size_memmove(void *, const void *, size_t);
void *picolibc_size_memset(void *, int, size_t);
void *picolibc_speed_memcpy(void *, const void *, size_t);
void *picolibc_speed_memmove(void *, const void *, size_t);
void *picolibc_speed_memset(void *, int, size_t);
/* The peers (tests/peers.mk): built from Debian's source packages. */
void *linux_memcpy(void *, const void *, size_t);
void *linux_memmove(void *, const void *, size_t);
void *linux_memset(void *, int, size_t);
void *glibc_memcpy(void *, const void *, size_t);
void *glibc_memmove(void *, const void *, size_t);
void *glibc_memset(void *, int, size_t);
void *newlib_memcpy(void *, const void *, size_t);
void *newlib_memmove(void *, const void *, size_t);
void *newlib_memset(void *, int, size_t);

/*
 * The plain byte loops: the generic code the 2021 series replaced.  The
 * image is built with -fno-tree-loop-distribute-patterns, so they stay loops
 * (not calls to memcpy); noinline keeps each a function of its own.
 */
static __attribute__((noinline)) void *byteloop_memcpy(void *dst, const void *src,
							size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static __attribute__((noinline)) void *byteloop_memmove(void *dst, const void *src,
							 size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d <= (uintptr_t)s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

static __attribute__((noinline)) void *byteloop_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

/*
 * wordmerge first: the suite and the benchmark take entry 0 for ours; the
 * byte loop last (the benchmark's cache-warming load takes it).  Every
 * entry must be filled: one left empty would be a null function.
 */
const struct wm_impl wm_impls[WM_NIMPLS] = {
	{ { "wordmerge", memcpy, memmove, memset }, { "memcpy", "memmove", "memset" }, 1 },
	{ { "picolibc-size", picolibc_size_memcpy, picolibc_size_memmove, picolibc_size_memset },
	  { "picolibc_size_memcpy", "picolibc_size_memmove", "picolibc_size_memset" }, 1 },
	{ { "picolibc-speed", picolibc_speed_memcpy, picolibc_speed_memmove,
	    picolibc_speed_memset },
	  { "picolibc_speed_memcpy", "picolibc_speed_memmove", "picolibc_speed_memset" }, 1 },
	{ { "linux-asm", linux_memcpy, linux_memmove, linux_memset },
	  { "linux_memcpy", "linux_memmove", "linux_memset" }, 1 },
	{ { "glibc-generic", glibc_memcpy, glibc_memmove, glibc_memset },
	  { "glibc_memcpy", "glibc_memmove", "glibc_memset" }, 1 },
	{ { "newlib", newlib_memcpy, newlib_memmove, newlib_memset },
	  { "newlib_memcpy", "newlib_memmove", "newlib_memset" }, 1 },
	{ { "byte-loop", byteloop_memcpy, byteloop_memmove, byteloop_memset },
	  { "byteloop_memcpy", "byteloop_memmove", "byteloop_memset" }, 0 },
};
