// SPDX-License-Identifier: MIT
/*
 * Word-at-a-time memcpy, memmove and memset that never make a misaligned
 * access, in portable freestanding C.
 *
 * The technique is the one of the 2021 Linux series "lib/string: optimized
 * mem* functions":
 *   1. store bytes until dst is word-aligned;
 *   2. if src is then word-aligned too, copy whole words;
 *   3. otherwise load *aligned* words from src and build each destination word
 *      from two neighbouring source words with a pair of shifts (which way
 *      each word is shifted depends on the byte order);
 *   4. finish the tail in bytes.
 * memset spreads the byte over a word, aligns dst and stores words.  Unlike
 * the series, memmove is word-wise in both directions: the backward copy is
 * the mirror image of the forward one.
 *
 * Every word access goes through a pointer to `word` whose address is a
 * multiple of sizeof(word): on cores that trap misaligned accesses (SiFive
 * U54/U74, where OpenSBI then emulates them ~100x slower) we never trap.  No
 * source word is read that lies wholly outside [src, src + n).
 *
 * Build with -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns:
 * otherwise GCC may turn the byte loops below into calls to memcpy/memset,
 * i.e. into calls to ourselves.
 */
#include <stdint.h>

#include "wordmerge.h"

/* may_alias: dst and src are the caller's objects of any type. */
typedef unsigned long __attribute__((may_alias)) word;

#define WSIZE ((uintptr_t)sizeof(word))
#define WMASK (WSIZE - 1)
#define WBITS ((int)(8 * sizeof(word)))

/*
 * MERGE(lo, hi, ls, rs): the word that starts ls/8 bytes into `lo`, where `lo`
 * is the aligned source word at the lower address and `hi` the one after it;
 * rs == WBITS - ls.  0 < ls < WBITS, so neither shift is by the full width.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MERGE(lo, hi, ls, rs) (((lo) >> (ls)) | ((hi) << (rs)))
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MERGE(lo, hi, ls, rs) (((lo) << (ls)) | ((hi) >> (rs)))
#else
#error "wordmerge needs the compiler's __BYTE_ORDER__"
#endif

/*
 * Below this many bytes a plain byte loop is cheaper than aligning.  It must
 * be at least 2 * WSIZE - 1 so that, once dst is aligned, at least one whole
 * word is left to copy (the word loops below are do-while loops).
 */
#define WM_SMALL (2 * WSIZE)

/*
 * Forward copy, lowest address first.  Safe for memmove when dst < src: a
 * destination word is stored only after every source word that overlaps it
 * has been loaded (dst is aligned, so it never runs ahead of the aligned
 * source word just read).
 */
static void *wm_copy_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= WM_SMALL) {
		uintptr_t head = -(uintptr_t)d & WMASK;
		uintptr_t off;
		word *dw, *dend;

		n -= head;
		while (head--)
			*d++ = *s++;

		dw = (word *)d;
		dend = (word *)(d + (n & ~WMASK));
		off = (uintptr_t)s & WMASK;
		if (off == 0) {
			const word *sw = (const word *)s;

			do
				*dw++ = *sw++;
			while (dw < dend);
		} else {
			/* The first aligned word holds src's first WSIZE - off bytes. */
			const word *sw = (const word *)(s - off);
			int ls = (int)off * 8;
			int rs = WBITS - ls;
			word lo = *sw;

			do {
				word hi = *++sw;

				*dw++ = MERGE(lo, hi, ls, rs);
				lo = hi;
			} while (dw < dend);
		}
		s += n & ~WMASK;
		d = (unsigned char *)dend;
		n &= WMASK;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

/*
 * Backward copy, highest address first: the mirror image of wm_copy_fwd, for
 * memmove when dst > src and the buffers overlap.
 */
static void *wm_copy_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = (unsigned char *)dst + n;
	const unsigned char *s = (const unsigned char *)src + n;

	if (n >= WM_SMALL) {
		uintptr_t head = (uintptr_t)d & WMASK;
		uintptr_t off;
		word *dw, *dstop;

		n -= head;
		while (head--)
			*--d = *--s;

		dw = (word *)d;
		dstop = (word *)(d - (n & ~WMASK));
		off = (uintptr_t)s & WMASK;
		if (off == 0) {
			const word *sw = (const word *)s;

			do
				*--dw = *--sw;
			while (dw > dstop);
		} else {
			/* The last aligned word holds src's last `off` bytes. */
			const word *sw = (const word *)(s - off);
			int ls = (int)off * 8;
			int rs = WBITS - ls;
			word hi = *sw;

			do {
				word lo = *--sw;

				*--dw = MERGE(lo, hi, ls, rs);
				hi = lo;
			} while (dw > dstop);
		}
		s -= n & ~WMASK;
		d = (unsigned char *)dstop;
		n &= WMASK;
	}
	while (n--)
		*--d = *--s;
	return dst;
}

void *WM_NAME(memcpy)(void *restrict dst, const void *restrict src, size_t n)
{
	return wm_copy_fwd(dst, src, n);
}

/*
 * Forward whenever dst does not lie inside (src, src + n): the unsigned
 * difference covers both dst < src and disjoint buffers in one compare.
 */
void *WM_NAME(memmove)(void *dst, const void *src, size_t n)
{
	if ((uintptr_t)dst - (uintptr_t)src >= n)
		return wm_copy_fwd(dst, src, n);
	return wm_copy_bwd(dst, src, n);
}

void *WM_NAME(memset)(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	unsigned char b = (unsigned char)c;

	if (n >= WM_SMALL) {
		/* ~0 / 0xff is 0x0101...01: one copy of b in every byte. */
		word w = (word)b * (~(word)0 / 0xff);
		uintptr_t head = -(uintptr_t)d & WMASK;
		word *dw, *dend;

		n -= head;
		while (head--)
			*d++ = b;
		dw = (word *)d;
		dend = (word *)(d + (n & ~WMASK));
		do
			*dw++ = w;
		while (dw < dend);
		d = (unsigned char *)dend;
		n &= WMASK;
	}
	while (n--)
		*d++ = b;
	return dst;
}
