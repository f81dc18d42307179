// SPDX-License-Identifier: MIT
/* The implementations' table (impls.h). */
#include <stdint.h>
#include <string.h>

#include "impls.h"

/*
 * A reference's three functions, renamed P_memcpy etc. (tools/extract-refs.sh),
 * and its table entry: the same prefix gives the functions and the symbols
 * the benchmark announces.
 */
#define REF_DECLARE(p)						\
	void *p##_memcpy(void *, const void *, size_t);		\
	void *p##_memmove(void *, const void *, size_t);	\
	void *p##_memset(void *, int, size_t)
#define REF_ENTRY(name, p, in_suite)					\
	{ { name, p##_memcpy, p##_memmove, p##_memset },		\
	  { #p "_memcpy", #p "_memmove", #p "_memset" }, in_suite }

REF_DECLARE(picolibc_size);
REF_DECLARE(picolibc_speed);
#if WM_PEERS
/* The peers (tests/peers.mk): built from Debian's source packages. */
REF_DECLARE(linux);
REF_DECLARE(glibc);
REF_DECLARE(newlib);
#endif

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
	REF_ENTRY("picolibc-size", picolibc_size, 1),
	REF_ENTRY("picolibc-speed", picolibc_speed, 1),
#if WM_PEERS
	REF_ENTRY("linux-asm", linux, 1),
	REF_ENTRY("glibc-generic", glibc, 1),
	REF_ENTRY("newlib", newlib, 1),
#endif
	REF_ENTRY("byte-loop", byteloop, 0),
};
