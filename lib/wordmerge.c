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
 *   4. finish the tail.
 * memset spreads the byte over a word, aligns dst and stores words.  Unlike
 * the series, memmove is word-wise in both directions: the backward copy is
 * the mirror image of the forward one.
 *
 * Two refinements over the series, both measured (make bench-check):
 *   - the head and the tail are not byte loops: the source bytes they need
 *     are merged into one word, which is then written with naturally
 *     aligned byte, halfword and word stores (at most one of each);
 *   - the word loops are unrolled (16 words for a co-aligned copy, 8 for a
 *     merge, 32 for memset), so that an iteration costs its loads and stores
 *     plus two pointer bumps and one branch.
 * Build with -DWM_SMALL_CODE=1 (make LIB_SIZE=small) for firmware that wants
 * the smallest code: the same algorithm with byte loops for head and tail and
 * no unrolling, still word-wise and still never misaligned.
 *
 * Every word, halfword and byte access in this C code is to an address that
 * is a multiple of its size: on cores that trap misaligned accesses (SiFive
 * U54/U74, where OpenSBI then emulates them ~100x slower) we never trap.  No
 * source word is read that lies wholly outside [src, src + n).  (Pointing
 * an aligned word pointer below src is, to the letter of ISO C, outside the
 * object; GCC and clang, the compilers we build and test with, define it.)
 *
 * Compilers may turn a byte loop into a call to memcpy or memset, which here
 * would be a call to ourselves: WM_NO_LIBCALLS below switches that off in
 * the source, and the build adds -ffreestanding -fno-builtin
 * -fno-tree-loop-distribute-patterns; make test checks that the object calls
 * nothing (nm -u) for every compiler and level.  A compiler may also merge
 * neighbouring byte accesses into one wider access, which on a target
 * without fast misaligned access it only does where alignment is known: on
 * RISC-V that is the default tuning, and the image's build says so
 * explicitly with -mstrict-align.
 */
#include <stdint.h>

#include "wordmerge.h"

#if defined(__clang__)
#define WM_NO_LIBCALLS __attribute__((no_builtin))
#elif defined(__GNUC__)
#pragma GCC optimize("no-tree-loop-distribute-patterns")
#define WM_NO_LIBCALLS
#else
#define WM_NO_LIBCALLS
#endif

#ifndef WM_SMALL_CODE
#define WM_SMALL_CODE 0
#endif

/* may_alias: dst and src are the caller's objects of any type. */
typedef unsigned long __attribute__((may_alias)) word;
typedef uint32_t __attribute__((may_alias)) u32;
typedef uint16_t __attribute__((may_alias)) u16;

#define WSIZE ((uintptr_t)sizeof(word))
#define WMASK (WSIZE - 1)
#define WBITS ((int)(8 * sizeof(word)))

/*
 * Byte order.  A word loaded from memory holds its bytes "first" to "last"
 * in address order.  DROP(x, b) discards the first b bits' worth of bytes,
 * moving the rest towards the first position; PUSH(x, b) moves the bytes b
 * bits towards the last position.  FIRST(x, n) and LAST(x, n) are the first
 * and last n bits' worth of bytes, as a value to store with an n-bit store.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DROP(x, b) ((x) >> (b))
#define PUSH(x, b) ((x) << (b))
#define FIRST(x, n) (x)
#define LAST(x, n) ((x) >> (WBITS - (n)))
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DROP(x, b) ((x) << (b))
#define PUSH(x, b) ((x) >> (b))
#define FIRST(x, n) ((x) >> (WBITS - (n)))
#define LAST(x, n) (x)
#else
#error "wordmerge needs the compiler's __BYTE_ORDER__"
#endif

/*
 * The word that starts ls/8 bytes into `lo`, where `lo` is the aligned
 * source word at the lower address and `hi` the one after it; rs is
 * WBITS - ls.  0 < ls < WBITS, so neither shift is by the full width.  The
 * shift amounts are ints computed once per call: unsigned shift arithmetic
 * made GCC add extensions inside the loops.
 */
#define MERGE(lo, hi, ls, rs) (DROP(lo, ls) | PUSH(hi, rs))

#if !WM_SMALL_CODE
/*
 * The WSIZE source bytes starting at s, as one word, loading only aligned
 * words that hold at least one of the first k of them (1 <= k <= WSIZE).
 */
static inline word wm_load_first(const unsigned char *s, uintptr_t k)
{
	uintptr_t off = (uintptr_t)s & WMASK;
	const word *sw = (const word *)(s - off);
	word x = sw[0];

	if (off) {
		int ls = (int)off * 8;

		x = DROP(x, ls);
		if (off + k > WSIZE)
			x |= PUSH(sw[1], WBITS - ls);
	}
	return x;
}

/*
 * The WSIZE source bytes that end at s, as one word, loading only aligned
 * words that hold at least one of the last k of them (1 <= k <= WSIZE).
 */
static inline word wm_load_last(const unsigned char *s, uintptr_t k)
{
	uintptr_t off = (uintptr_t)s & WMASK;
	const word *sw = (const word *)(s - off);
	word x;

	if (!off)
		return sw[-1];
	x = PUSH(sw[0], WBITS - (int)off * 8);
	if (k > off)
		x |= DROP(sw[-1], (int)off * 8);
	return x;
}

/*
 * Store the first bytes of x from d up to the next word boundary, with
 * naturally aligned stores: a byte if d is odd, then a halfword, then (on
 * 64-bit) a word.
 */
static inline void wm_store_head(unsigned char *d, word x)
{
	if ((uintptr_t)d & 1) {
		*d = (unsigned char)FIRST(x, 8);
		x = DROP(x, 8);
		d += 1;
	}
	if ((uintptr_t)d & 2) {
		*(u16 *)d = (uint16_t)FIRST(x, 16);
		x = DROP(x, 16);
		d += 2;
	}
#if __SIZEOF_LONG__ == 8
	if ((uintptr_t)d & 4)
		*(u32 *)d = (uint32_t)FIRST(x, 32);
#endif
}

/* Store the first r < WSIZE bytes of x at the word-aligned d. */
static inline void wm_store_tail(unsigned char *d, word x, uintptr_t r)
{
#if __SIZEOF_LONG__ == 8
	if (r & 4) {
		*(u32 *)d = (uint32_t)FIRST(x, 32);
		x = DROP(x, 32);
		d += 4;
	}
#endif
	if (r & 2) {
		*(u16 *)d = (uint16_t)FIRST(x, 16);
		x = DROP(x, 16);
		d += 2;
	}
	if (r & 1)
		*d = (unsigned char)FIRST(x, 8);
}

/* Store the last bytes of x below the end e, down to the word boundary. */
static inline void wm_store_head_bwd(unsigned char *e, word x)
{
	if ((uintptr_t)e & 1) {
		e -= 1;
		*e = (unsigned char)LAST(x, 8);
		x = PUSH(x, 8);
	}
	if ((uintptr_t)e & 2) {
		e -= 2;
		*(u16 *)e = (uint16_t)LAST(x, 16);
		x = PUSH(x, 16);
	}
#if __SIZEOF_LONG__ == 8
	if ((uintptr_t)e & 4)
		*(u32 *)(e - 4) = (uint32_t)LAST(x, 32);
#endif
}

/* Store the last r < WSIZE bytes of x below the word-aligned end e. */
static inline void wm_store_tail_bwd(unsigned char *e, word x, uintptr_t r)
{
#if __SIZEOF_LONG__ == 8
	if (r & 4) {
		e -= 4;
		*(u32 *)e = (uint32_t)LAST(x, 32);
		x = PUSH(x, 32);
	}
#endif
	if (r & 2) {
		e -= 2;
		*(u16 *)e = (uint16_t)LAST(x, 16);
		x = PUSH(x, 16);
	}
	if (r & 1)
		*(e - 1) = (unsigned char)LAST(x, 8);
}
#endif /* !WM_SMALL_CODE */

/* Unrolled loop bodies: R8(X) is X(0) X(1) .. X(7). */
#define R4(X) X(0) X(1) X(2) X(3)
#define R8(X) R4(X) X(4) X(5) X(6) X(7)
#define R16(X) R8(X) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

/*
 * Forward copy of n >= WSIZE bytes, lowest address first: memcpy, and
 * memmove when dst < src or the buffers are disjoint.  Deliberately not
 * restrict-qualified: memmove relies on it for overlapping buffers.  It is
 * safe for dst < src because a destination word is stored only after every
 * source word that overlaps it has been loaded (dst is aligned, so it never
 * runs ahead of the aligned source word just read).
 *
 * noinline, and called in tail position: left to itself GCC splits memcpy
 * and keeps dst in a saved register across the call, which costs every call.
 */
WM_NO_LIBCALLS static __attribute__((noinline)) void *wm_copy_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uintptr_t head = -(uintptr_t)d & WMASK;
	uintptr_t off;
	word *dw, *dend;

	/* 1. Up to the first word boundary of dst. */
#if WM_SMALL_CODE
	n -= head;
	while (head--)
		*d++ = *s++;
#else
	if (head) {
		wm_store_head(d, wm_load_first(s, head));
		d += head;
		s += head;
		n -= head;
	}
#endif
	dw = (word *)d;
	dend = (word *)(d + (n & ~WMASK));
	off = (uintptr_t)s & WMASK;
	if (off == 0) {
		/* 2. Co-aligned: whole words. */
		const word *sw = (const word *)s;
#if !WM_SMALL_CODE
		word *dblk = dw + ((size_t)(dend - dw) & ~(size_t)15);

		while (dw != dblk) {
#define COPY(i) dw[i] = sw[i];
			R16(COPY)
#undef COPY
			dw += 16;
			sw += 16;
		}
#endif
		while (dw != dend)
			*dw++ = *sw++;
	} else if (dw != dend) {
		/*
		 * 3. Merge.  The first aligned source word holds src's first
		 * WSIZE - off bytes; `lo` carries the previous word from one
		 * store to the next.
		 */
		const word *sw = (const word *)(s - off);
		int ls = (int)off * 8;
		int rs = WBITS - ls;
		word lo = sw[0];
#if !WM_SMALL_CODE
		word *dblk = dw + ((size_t)(dend - dw) & ~(size_t)7);

		/*
		 * Each load right before the store that needs it, lo and hi
		 * taking turns: loading all eight first ran out of registers
		 * and made every call save and restore a dozen of them.
		 */
		while (dw != dblk) {
			word hi;
#define PAIR(i)                                      \
	hi = sw[(i) + 1];                            \
	dw[i] = MERGE(lo, hi, ls, rs);               \
	lo = sw[(i) + 2];                            \
	dw[(i) + 1] = MERGE(hi, lo, ls, rs);
			PAIR(0) PAIR(2) PAIR(4) PAIR(6)
#undef PAIR
			dw += 8;
			sw += 8;
		}
#endif
#if !WM_SMALL_CODE
		/* The last 0..7 words: an odd one, then pairs. */
		if ((dend - dw) & 1) {
			word hi = *++sw;

			*dw++ = MERGE(lo, hi, ls, rs);
			lo = hi;
		}
		while (dw != dend) {
			word hi = sw[1];

			dw[0] = MERGE(lo, hi, ls, rs);
			lo = sw[2];
			dw[1] = MERGE(hi, lo, ls, rs);
			dw += 2;
			sw += 2;
		}
#else
		while (dw != dend) {
			word hi = *++sw;

			*dw++ = MERGE(lo, hi, ls, rs);
			lo = hi;
		}
#endif
	}
	s += n & ~WMASK;
	d = (unsigned char *)dend;
	n &= WMASK;

	/* 4. The tail. */
#if WM_SMALL_CODE
	while (n--)
		*d++ = *s++;
#else
	if (n)
		wm_store_tail(d, wm_load_first(s, n), n);
#endif
	return dst;
}

/*
 * Backward copy of n >= WSIZE bytes, highest address first: the mirror image
 * of wm_copy_fwd, for memmove when dst > src and the buffers overlap.
 */
WM_NO_LIBCALLS static __attribute__((noinline)) void *wm_copy_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = (unsigned char *)dst + n;
	const unsigned char *s = (const unsigned char *)src + n;
	uintptr_t head = (uintptr_t)d & WMASK;
	uintptr_t off;
	word *dw, *dstop;

#if WM_SMALL_CODE
	n -= head;
	while (head--)
		*--d = *--s;
#else
	if (head) {
		wm_store_head_bwd(d, wm_load_last(s, head));
		d -= head;
		s -= head;
		n -= head;
	}
#endif
	dw = (word *)d;
	dstop = (word *)(d - (n & ~WMASK));
	off = (uintptr_t)s & WMASK;
	if (off == 0) {
		const word *sw = (const word *)s;
#if !WM_SMALL_CODE
		word *dblk = dw - ((size_t)(dw - dstop) & ~(size_t)15);

		while (dw != dblk) {
			dw -= 16;
			sw -= 16;
#define COPY(i) dw[15 - (i)] = sw[15 - (i)];
			R16(COPY)
#undef COPY
		}
#endif
		while (dw != dstop)
			*--dw = *--sw;
	} else if (dw != dstop) {
		/* The last aligned source word holds src's last `off` bytes. */
		const word *sw = (const word *)(s - off);
		int ls = (int)off * 8;
		int rs = WBITS - ls;
		word hi = sw[0];
#if !WM_SMALL_CODE
		word *dblk = dw - ((size_t)(dw - dstop) & ~(size_t)7);

		while (dw != dblk) {
			word lo;

			dw -= 8;
			sw -= 8;
#define PAIR(i)                                      \
	lo = sw[i];                                  \
	dw[i] = MERGE(lo, hi, ls, rs);               \
	hi = sw[(i) - 1];                            \
	dw[(i) - 1] = MERGE(hi, lo, ls, rs);
			PAIR(7) PAIR(5) PAIR(3) PAIR(1)
#undef PAIR
		}
#endif
#if !WM_SMALL_CODE
		if ((dw - dstop) & 1) {
			word lo = *--sw;

			*--dw = MERGE(lo, hi, ls, rs);
			hi = lo;
		}
		while (dw != dstop) {
			word lo = sw[-1];

			dw[-1] = MERGE(lo, hi, ls, rs);
			hi = sw[-2];
			dw[-2] = MERGE(hi, lo, ls, rs);
			dw -= 2;
			sw -= 2;
		}
#else
		while (dw != dstop) {
			word lo = *--sw;

			*--dw = MERGE(lo, hi, ls, rs);
			hi = lo;
		}
#endif
	}
	s -= n & ~WMASK;
	d = (unsigned char *)dstop;
	n &= WMASK;
#if WM_SMALL_CODE
	while (n--)
		*--d = *--s;
#else
	if (n)
		wm_store_tail_bwd(d, wm_load_last(s, n), n);
#endif
	return dst;
}

/*
 * Small copies.  Below one word there is nothing to align.  Up to two words
 * at relatively misaligned or unaligned addresses, aligning and merging
 * costs more than it saves: copy bytes, forward four per iteration (the
 * loads before the stores, which keeps it safe for memmove with dst < src),
 * backward one at a time (measured: unrolling it too cost 64 bytes of the
 * 2 KiB budget; sending 8..16 bytes to the word path instead made memmove
 * slower in both directions, GCC laying the dispatch out differently).  The size-
 * first build keeps a plain byte loop below one word only.  Not inlined:
 * memcpy and memmove share them through tail calls.
 */
#if WM_SMALL_CODE
#define WM_BYTES_MAX(d, s) (WSIZE - 1)
#else
#define WM_BYTES_MAX(d, s) \
	((((uintptr_t)(d) | (uintptr_t)(s)) & WMASK) ? 2 * WSIZE : WSIZE - 1)
#endif

WM_NO_LIBCALLS static __attribute__((noinline)) void *wm_bytes_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
#if !WM_SMALL_CODE
	unsigned char *end4 = d + (n & ~(size_t)3);

	while (d != end4) {
		unsigned char b0 = s[0], b1 = s[1], b2 = s[2], b3 = s[3];

		d[0] = b0;
		d[1] = b1;
		d[2] = b2;
		d[3] = b3;
		d += 4;
		s += 4;
	}
	n &= 3;
#endif
	while (n--)
		*d++ = *s++;
	return dst;
}

WM_NO_LIBCALLS static __attribute__((noinline)) void *wm_bytes_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = (unsigned char *)dst + n;
	const unsigned char *s = (const unsigned char *)src + n;

	while (n--)
		*--d = *--s;
	return dst;
}

WM_NO_LIBCALLS void *WM_NAME(memcpy)(void *restrict dst, const void *restrict src, size_t n)
{
	if (n > WM_BYTES_MAX(dst, src))
		return wm_copy_fwd(dst, src, n);
	return wm_bytes_fwd(dst, src, n);
}

/*
 * Forward whenever dst does not lie inside (src, src + n): the unsigned
 * difference covers both dst < src and disjoint buffers in one compare.
 */
WM_NO_LIBCALLS void *WM_NAME(memmove)(void *dst, const void *src, size_t n)
{
	if ((uintptr_t)dst - (uintptr_t)src >= n) {
		if (n > WM_BYTES_MAX(dst, src))
			return wm_copy_fwd(dst, src, n);
		return wm_bytes_fwd(dst, src, n);
	}
	if (n > WM_BYTES_MAX(dst, src))
		return wm_copy_bwd(dst, src, n);
	return wm_bytes_bwd(dst, src, n);
}

WM_NO_LIBCALLS void *WM_NAME(memset)(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	unsigned char b = (unsigned char)c;

	if (n > WM_BYTES_MAX(dst, 0)) {
		/* ~0 / 0xff is 0x0101...01: one copy of b in every byte. */
		word w = (word)b * (~(word)0 / 0xff);
		uintptr_t head = -(uintptr_t)d & WMASK;
		word *dw, *dend;

#if WM_SMALL_CODE
		n -= head;
		while (head--)
			*d++ = b;
#else
		if (head) {
			wm_store_head(d, w);
			d += head;
			n -= head;
		}
#endif
		dw = (word *)d;
		dend = (word *)(d + (n & ~WMASK));
#if !WM_SMALL_CODE
		{
			word *dblk = dw + ((size_t)(dend - dw) & ~(size_t)31);

			while (dw != dblk) {
#define SET(i) dw[i] = w; dw[(i) + 16] = w;
				R16(SET)
#undef SET
				dw += 32;
			}
			while (dw != dend)
				*dw++ = w;
			n &= WMASK;
			if (n)
				wm_store_tail((unsigned char *)dend, w, n);
			return dst;
		}
#else
		while (dw != dend)
			*dw++ = w;
		d = (unsigned char *)dend;
		n &= WMASK;
#endif
	}
#if !WM_SMALL_CODE
	{
		unsigned char *end4 = d + (n & ~(size_t)3);

		while (d != end4) {
			d[0] = b;
			d[1] = b;
			d[2] = b;
			d[3] = b;
			d += 4;
		}
		n &= 3;
	}
#endif
	while (n--)
		*d++ = b;
	return dst;
}
