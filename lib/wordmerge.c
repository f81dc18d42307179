// SPDX-License-Identifier: MIT
/*
 * memcpy, memmove and memset a word at a time, never misaligned, in portable C.
 * As musl's: 1. the head, up to dst's first word boundary; 2. whole words if src
 * is then aligned; 3. else aligned source words, each destination word merged
 * from two by a pair of shifts; 4. the tail.  memmove copies backward when dst
 * lies inside the source, which programs seldom ask: there the loops of eight
 * words stay and the rest goes a word or a byte a step.
 *
 * Each loop loads its group of words before it stores any, so that on an
 * in-order core no store waits on a load; dst and src may overlap, so the
 * compiler keeps that order.  Build it with GCC's -fno-tree-loop-distribute-patterns,
 * which keeps the loops from becoming calls to memcpy and memset.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif
#include "wordmerge.h"

/* clang's counterpart of that flag, given to every function with a loop. */
#if defined(__clang__)
#define WM_NO_LIBCALLS __attribute__((__no_builtin__))
#else
#define WM_NO_LIBCALLS
#endif
/* For the helpers that take or give words of the caller's bytes: no call passes them. */
#define WM_INLINE WM_NO_LIBCALLS static inline __attribute__((__always_inline__))
#define WM_OUTLINE WM_NO_LIBCALLS static __attribute__((__noinline__))

#ifndef WM_SMALL_CODE
#define WM_SMALL_CODE 0
#endif

/* may_alias: dst and src are the caller's objects of any type. */
typedef unsigned long __attribute__((__may_alias__)) word;
typedef uint32_t __attribute__((__may_alias__)) wm_u32;
typedef uint16_t __attribute__((__may_alias__)) wm_u16;

#define WSIZE ((uintptr_t)sizeof(word))
#define WMASK (WSIZE - 1)
#define WBITS ((int)(8 * sizeof(word)))

/* In address order: DROP drops the first b bits, PUSH moves bytes b bits later. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DROP(x, b) ((x) >> (b))
#define PUSH(x, b) ((x) << (b))
#define FIRST(x, n) (x)
#define LAST(x, n) ((x) >> (WBITS - (n)))
#define AT(b, i) ((word)(b) << (8 * (i)))
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DROP(x, b) ((x) << (b))
#define PUSH(x, b) ((x) >> (b))
#define FIRST(x, n) ((x) >> (WBITS - (n)))
#define LAST(x, n) (x)
#define AT(b, i) ((word)(b) << (WBITS - 8 - 8 * (i)))
#else
#error "wordmerge needs the compiler's __BYTE_ORDER__"
#endif

/* The word ls/8 bytes into lo; rs = WBITS - ls, both ints (no extensions). */
#define MERGE(lo, hi, ls, rs) (DROP(lo, ls) | PUSH(hi, rs))

/* EDGE(p, lo, hi): the word at p for its bytes in [lo, hi); WM_EXACT reads no others. */
#if !defined(WM_EXACT) && (defined(__SANITIZE_ADDRESS__) || \
	defined(__SANITIZE_HWADDRESS__) || defined(__SANITIZE_THREAD__))
#define WM_EXACT 1
#elif !defined(WM_EXACT) && defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(hwaddress_sanitizer) || \
	__has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define WM_EXACT 1
#endif
#endif
#ifndef WM_EXACT
#define WM_EXACT 0
#endif

#if WM_EXACT
WM_INLINE word wm_edge(const word *p, uintptr_t lo, uintptr_t hi)
{
	uintptr_t a = (uintptr_t)p, i;
	word x = 0;

	if (a >= lo && a + WSIZE <= hi)
		return *p;
	for (i = 0; i < WSIZE; i++)
		if (a + i >= lo && a + i < hi)
			x |= AT(*(const unsigned char *)(a + i), i);
	return x;
}
#define EDGE(p, lo, hi) wm_edge(p, (uintptr_t)(lo), (uintptr_t)(hi))
#else
#define EDGE(p, lo, hi) ((void)(lo), (void)(hi), *(p))
#endif

/* p + n past PTRDIFF_MAX is undefined: integers where an object can be that big. */
#if __SIZEOF_POINTER__ > 4
#define END(T, p, n) ((T)((unsigned char *)(p) + (n)))
#define START(T, p, n) ((T)((unsigned char *)(p) - (n)))
#else
#define END(T, p, n) ((T)((uintptr_t)(p) + (n)))
#define START(T, p, n) ((T)((uintptr_t)(p) - (n)))
#endif

/* The WSIZE bytes that end at s, loading only words with one of the last k. */
WM_INLINE word wm_load_last(const unsigned char *s, uintptr_t k)
{
	uintptr_t off = (uintptr_t)s & WMASK;
	const word *sw = (const word *)((uintptr_t)s - off);
	word x;

	if (!off)
		return EDGE(sw - 1, (uintptr_t)s - k, s);
	x = PUSH(EDGE(sw, (uintptr_t)s - k, s), WBITS - (int)off * 8);
	if (k > off)
		x |= DROP(EDGE(sw - 1, (uintptr_t)s - k, s), (int)off * 8);
	return x;
}

/* Steps 1 and 4: the first k < WSIZE bytes of x to the word-aligned d, each store aligned. */
WM_INLINE void wm_put_fwd(unsigned char *d, uintptr_t k, word x)
{
	if (WSIZE == 8 && (k & 4)) {
		*(wm_u32 *)d = (uint32_t)FIRST(x, 32);
		x = DROP(x, WBITS == 64 ? 32 : 0);
		d += 4;
	}
	if (k & 2) {
		*(wm_u16 *)d = (uint16_t)FIRST(x, 16);
		x = DROP(x, 16);
		d += 2;
	}
	if (k & 1)
		*d = (unsigned char)FIRST(x, 8);
}

/* The mirror image: the last k bytes of x to those below the word-aligned e. */
WM_INLINE void wm_put_bwd(unsigned char *e, uintptr_t k, word x)
{
	if (WSIZE == 8 && (k & 4)) {
		e -= 4;
		*(wm_u32 *)e = (uint32_t)LAST(x, 32);
		x = PUSH(x, WBITS == 64 ? 32 : 0);
	}
	if (k & 2) {
		e -= 2;
		*(wm_u16 *)e = (uint16_t)LAST(x, 16);
		x = PUSH(x, 16);
	}
	if (k & 1)
		*(e - 1) = (unsigned char)LAST(x, 8);
}

/* Bytes: a small build's ends and short copies, and a backward copy's. */
WM_INLINE void wm_bytes_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
	while (n--)
		*d++ = *s++;
}

WM_INLINE void wm_bytes_bwd(unsigned char *e, const unsigned char *s, size_t n)
{
	while (n--)
		*--e = *--s;
}

/* Step 1: the k < WSIZE bytes up to d's first word boundary, stored down from it. */
WM_INLINE void wm_head_fwd(unsigned char *d, const unsigned char *s, uintptr_t k)
{
	if (WM_SMALL_CODE)
		wm_bytes_fwd(d, s, k);
	else
		wm_put_bwd(d + k, k, wm_load_last(s + k, k));
}

/* Step 2's block: eight words, loaded before any is stored. */
WM_INLINE void wm_move8_fwd(word *dw, const word *sw)
{
	word w0 = sw[0], w1 = sw[1], w2 = sw[2], w3 = sw[3];
	word w4 = sw[4], w5 = sw[5], w6 = sw[6], w7 = sw[7];

	dw[0] = w0;
	dw[1] = w1;
	dw[2] = w2;
	dw[3] = w3;
	dw[4] = w4;
	dw[5] = w5;
	dw[6] = w6;
	dw[7] = w7;
}

/* Step 2: whole words up to dend: below sixteen as their count's bits say (eight, four,
 * two, one), so that whole blocks skip them, then sixteen a step. */
WM_INLINE const word *wm_words_fwd(word *dw, const word *sw, word *dend)
{
	uintptr_t m = (uintptr_t)dend - (uintptr_t)dw;

	if (WM_SMALL_CODE) {
		while (dw != dend)
			*dw++ = *sw++;
		return sw;
	}
	if (m & 15 * WSIZE) {
		if (m & 8 * WSIZE) {
			wm_move8_fwd(dw, sw);
			dw += 8;
			sw += 8;
		}
		if (m & 4 * WSIZE) {
			word w0 = sw[0], w1 = sw[1], w2 = sw[2], w3 = sw[3];

			dw[0] = w0;
			dw[1] = w1;
			dw[2] = w2;
			dw[3] = w3;
			dw += 4;
			sw += 4;
		}
		if (m & 2 * WSIZE) {
			word w0 = sw[0], w1 = sw[1];

			dw[0] = w0;
			dw[1] = w1;
			dw += 2;
			sw += 2;
		}
		if (m & WSIZE)
			*dw++ = *sw++;
	}
	if (dw != dend)	/* a test of its own: GCC then keeps the steps after the stores */
		do {
			wm_move8_fwd(dw, sw);
			wm_move8_fwd(dw + 8, sw + 8);
			dw += 16;
			sw += 16;
		} while (dw != dend);
	return sw;
}

/* Step 3: dw[0..7] from w0 and the next eight source words (the last may be an edge),
 * each merged as soon as both its words are in, all stored at the end. */
WM_INLINE word wm_merge8_fwd(word *dw, const word *sw, word w0, int ls, int rs,
			     uintptr_t lo, uintptr_t hi)
{
	word w1 = sw[1], w2, w3, w4, w5, w6, w7, w8;
	word d0, d1, d2, d3, d4, d5, d6, d7;

	w2 = sw[2];
	d0 = MERGE(w0, w1, ls, rs);
	w3 = sw[3];
	d1 = MERGE(w1, w2, ls, rs);
	w4 = sw[4];
	d2 = MERGE(w2, w3, ls, rs);
	w5 = sw[5];
	d3 = MERGE(w3, w4, ls, rs);
	w6 = sw[6];
	d4 = MERGE(w4, w5, ls, rs);
	w7 = sw[7];
	d5 = MERGE(w5, w6, ls, rs);
	w8 = EDGE(sw + 8, lo, hi);
	d6 = MERGE(w6, w7, ls, rs);
	d7 = MERGE(w7, w8, ls, rs);
	dw[0] = d0;
	dw[1] = d1;
	dw[2] = d2;
	dw[3] = d3;
	dw[4] = d4;
	dw[5] = d5;
	dw[6] = d6;
	dw[7] = d7;
	return w8;
}

/* The mirror image: dw[-1..-8] from w0 and the eight source words below sw. */
WM_INLINE word wm_merge8_bwd(word *dw, const word *sw, word w0, int ls, int rs,
			     uintptr_t lo, uintptr_t hi)
{
	word w1 = sw[-1], w2, w3, w4, w5, w6, w7, w8;
	word d0, d1, d2, d3, d4, d5, d6, d7;

	w2 = sw[-2];
	d0 = MERGE(w1, w0, ls, rs);
	w3 = sw[-3];
	d1 = MERGE(w2, w1, ls, rs);
	w4 = sw[-4];
	d2 = MERGE(w3, w2, ls, rs);
	w5 = sw[-5];
	d3 = MERGE(w4, w3, ls, rs);
	w6 = sw[-6];
	d4 = MERGE(w5, w4, ls, rs);
	w7 = sw[-7];
	d5 = MERGE(w6, w5, ls, rs);
	w8 = EDGE(sw - 8, lo, hi);
	d6 = MERGE(w7, w6, ls, rs);
	d7 = MERGE(w8, w7, ls, rs);
	dw[-1] = d0;
	dw[-2] = d1;
	dw[-3] = d2;
	dw[-4] = d3;
	dw[-5] = d4;
	dw[-6] = d5;
	dw[-7] = d6;
	dw[-8] = d7;
	return w8;
}

/* Steps 3 and 4 for the last n < 8 * WSIZE bytes (any n in the small build): four,
 * two and one words as n's bits say, then the tail; w0 is the word at sw. */
WM_INLINE void wm_merge_end_fwd(word *dw, const word *sw, word w0, size_t n, int ls,
				uintptr_t lo, uintptr_t hi)
{
	int rs = WBITS - ls;
	word w1, w2, w3, w4;

	if (WM_SMALL_CODE) {
		for (; n >= WSIZE; n -= WSIZE, sw++, w0 = w1) {
			w1 = EDGE(sw + 1, lo, hi);
			*dw++ = MERGE(w0, w1, ls, rs);
		}
		wm_bytes_fwd((unsigned char *)dw, (const unsigned char *)sw + ls / 8, n);
		return;
	}
	if (n & 4 * WSIZE) {
		w1 = sw[1];
		w2 = sw[2];
		w3 = sw[3];
		w4 = EDGE(sw + 4, lo, hi);
		dw[0] = MERGE(w0, w1, ls, rs);
		dw[1] = MERGE(w1, w2, ls, rs);
		dw[2] = MERGE(w2, w3, ls, rs);
		dw[3] = MERGE(w3, w4, ls, rs);
		dw += 4;
		sw += 4;
		w0 = w4;
	}
	if (n & 2 * WSIZE) {
		w1 = sw[1];
		w2 = EDGE(sw + 2, lo, hi);
		dw[0] = MERGE(w0, w1, ls, rs);
		dw[1] = MERGE(w1, w2, ls, rs);
		dw += 2;
		sw += 2;
		w0 = w2;
	}
	if (n & WSIZE) {
		w1 = EDGE(++sw, lo, hi);
		*dw++ = MERGE(w0, w1, ls, rs);
		w0 = w1;
	}
	n &= WMASK;
	if (n) {
		w0 = DROP(w0, ls);
		if (n * 8 > (uintptr_t)rs)
			w0 |= PUSH(EDGE(sw + 1, lo, hi), rs);
		wm_put_fwd((unsigned char *)dw, n, w0);
	}
}

/* Steps 3 and 4: n bytes from the unaligned s to the aligned d. */
WM_OUTLINE void *wm_merge_fwd(void *dst, unsigned char *d, const unsigned char *s, size_t n)
{
	uintptr_t off = (uintptr_t)s & WMASK, slim = (uintptr_t)s + n;
	const word *sw = (const word *)((uintptr_t)s - off);

	wm_merge_end_fwd((word *)d, sw, EDGE(sw, s, slim), n, (int)off * 8, (uintptr_t)s, slim);
	return dst;
}

/* The same for n >= 8 * WSIZE: eight words a step first, apart so that short calls save nothing. */
WM_OUTLINE void *wm_merge_long_fwd(void *dst, unsigned char *d, const unsigned char *s, size_t n)
{
	uintptr_t off = (uintptr_t)s & WMASK, slim = (uintptr_t)s + n;
	const word *sw = (const word *)((uintptr_t)s - off);
	word *dw = (word *)d;
	int ls = (int)off * 8, rs = WBITS - ls;
	word w0 = EDGE(sw, s, slim);

	for (; n >= 8 * WSIZE; n -= 8 * WSIZE, dw += 8, sw += 8, s += 8 * WSIZE)
		w0 = wm_merge8_fwd(dw, sw, w0, ls, rs, (uintptr_t)s, slim);
	return wm_merge_fwd(dst, (unsigned char *)dw, s, n);
}

/* n > 2 * WSIZE bytes forward (memmove's too): steps 1 to 4. */
WM_OUTLINE void *wm_copy_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uintptr_t head = -(uintptr_t)d & WMASK;
	const word *sw;
	word *dend;

	/* The speed build tests dst's offset, ready a step before the head's length. */
	if (WM_SMALL_CODE ? head != 0 : ((uintptr_t)d & WMASK) != 0) {
		wm_head_fwd(d, s, head);
		d += head;
		s += head;
		n -= head;
	}
	if ((uintptr_t)s & WMASK) {
		if (!WM_SMALL_CODE && n >= 8 * WSIZE)
			return wm_merge_long_fwd(dst, d, s, n);
		return wm_merge_fwd(dst, d, s, n);
	}
	dend = END(word *, d, n & ~WMASK);
	sw = wm_words_fwd((word *)d, (const word *)s, dend);
	n &= WMASK;
	if (WM_SMALL_CODE)
		wm_bytes_fwd((unsigned char *)dend, (const unsigned char *)sw, n);
	else if (n)
		wm_put_fwd((unsigned char *)dend, n, EDGE(sw, sw, (uintptr_t)sw + n));
	return dst;
}

/* Steps 3 and 4 backward: the n bytes below the unaligned s to those below the aligned e,
 * eight words a step, each merged from two, then one, then bytes.  A function of its own:
 * were every return of wm_copy_bwd dst, clang would keep dst in a register through memmove. */
WM_OUTLINE void *wm_merge_bwd(void *dst, unsigned char *e, const unsigned char *s, size_t n)
{
	uintptr_t off = (uintptr_t)s & WMASK, slo = (uintptr_t)s - n;
	const word *sw = (const word *)((uintptr_t)s - off);
	word *dw = (word *)e, *dstop = START(word *, e, n & ~WMASK);
	word *dblocks = START(word *, e, WM_SMALL_CODE ? 0 : n & ~(8 * WSIZE - 1));
	int ls = (int)off * 8, rs = WBITS - ls;
	word w0 = EDGE(sw, slo, s);

	for (; dw != dblocks; dw -= 8, sw -= 8)
		w0 = wm_merge8_bwd(dw, sw, w0, ls, rs, slo, (uintptr_t)s);
	while (dw != dstop) {
		word w1 = EDGE(--sw, slo, s);

		*--dw = MERGE(w1, w0, ls, rs);
		w0 = w1;
	}
	wm_bytes_bwd((unsigned char *)dw, (const unsigned char *)sw + off, n & WMASK);
	return dst;
}

/* Backward, for a memmove whose dst lies inside its source, which programs seldom make:
 * the head in bytes, eight words a step, then one, then bytes. */
WM_OUTLINE void *wm_copy_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *e = END(unsigned char *, dst, n);
	const unsigned char *s = END(const unsigned char *, src, n);
	uintptr_t head = (uintptr_t)e & WMASK;
	word *dw, *dstop, *dblocks;
	const word *sw;

	wm_bytes_bwd(e, s, head);
	e -= head;
	s -= head;
	n -= head;
	if ((uintptr_t)s & WMASK)
		return wm_merge_bwd(dst, e, s, n);
	dw = (word *)e;
	sw = (const word *)s;
	dstop = START(word *, e, n & ~WMASK);
	dblocks = START(word *, e, WM_SMALL_CODE ? 0 : n & ~(8 * WSIZE - 1));
	for (; dw != dblocks; dw -= 8, sw -= 8) {
		word w0 = sw[-1], w1 = sw[-2], w2 = sw[-3], w3 = sw[-4];
		word w4 = sw[-5], w5 = sw[-6], w6 = sw[-7], w7 = sw[-8];

		dw[-1] = w0;
		dw[-2] = w1;
		dw[-3] = w2;
		dw[-4] = w3;
		dw[-5] = w4;
		dw[-6] = w5;
		dw[-7] = w6;
		dw[-8] = w7;
	}
	while (dw != dstop)
		*--dw = *--sw;
	wm_bytes_bwd((unsigned char *)dw, (const unsigned char *)sw, n & WMASK);
	return dst;
}

/* Up to WM_SHORT bytes, where aligning costs more than it saves. */
#define WM_SHORT (WM_SMALL_CODE ? WSIZE - 1 : 2 * WSIZE)

/* A short copy between word-aligned addresses: both words loaded, then stored. */
WM_INLINE void wm_short_words(word *dw, const word *sw, size_t n)
{
	uintptr_t end = (uintptr_t)sw + n;
	word w0 = EDGE(sw, sw, end), x = w0;

	if (n & (2 * WSIZE | WSIZE)) {
		if (n > WSIZE)
			x = EDGE(sw + 1, sw, end);
		*dw++ = w0;
		if (n & 2 * WSIZE) {
			*dw = x;
			return;
		}
	}
	wm_put_fwd((unsigned char *)dw, n & WMASK, x);
}

/* Eight bytes, all loaded before any is stored. */
WM_INLINE void wm_bytes8(unsigned char *d, const unsigned char *s)
{
	unsigned char b0 = s[0], b1 = s[1], b2 = s[2], b3 = s[3];
	unsigned char b4 = s[4], b5 = s[5], b6 = s[6], b7 = s[7];

	d[0] = b0;
	d[1] = b1;
	d[2] = b2;
	d[3] = b3;
	d[4] = b4;
	d[5] = b5;
	d[6] = b6;
	d[7] = b7;
}

/* A short copy forward, as n's bits say: sixteen or eight bytes, four, two, one
 * (memmove's forward copies too: each group is loaded before it is stored). */
WM_INLINE void wm_short_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
	if (WM_SMALL_CODE) {
		wm_bytes_fwd(d, s, n);
		return;
	}
	if (n & 16) {
		wm_bytes8(d, s);
		wm_bytes8(d + 8, s + 8);
		return;
	}
	if (n & 8) {
		wm_bytes8(d, s);
		d += 8;
		s += 8;
	}
	if (n & 4) {
		unsigned char b0 = s[0], b1 = s[1], b2 = s[2], b3 = s[3];

		d[0] = b0;
		d[1] = b1;
		d[2] = b2;
		d[3] = b3;
		d += 4;
		s += 4;
	}
	if (n & 2) {
		unsigned char b0 = s[0], b1 = s[1];

		d[0] = b0;
		d[1] = b1;
		d += 2;
		s += 2;
	}
	if (n & 1)
		*d = *s;
}

/* Both word-aligned: not WM_SMALL_CODE's, where such a short copy is bytes. */
#define WM_WORDS(d, s) (!WM_SMALL_CODE && !(((uintptr_t)(d) | (uintptr_t)(s)) & WMASK))

/* Short copies inline, so that the long ones are tail calls; n == 0 wraps round.  No
 * restrict here (the header's stays): with it GCC mixes a group's loads and stores. */
WM_NO_LIBCALLS void *wm_memcpy(void *dst, const void *src, size_t n)
{
	if (n - 1 < WM_SHORT) {
		if (WM_WORDS(dst, src))
			wm_short_words(dst, src, n);
		else
			wm_short_fwd(dst, src, n);
		return dst;
	}
	if (!n)
		return dst;
	return wm_copy_fwd(dst, src, n);
}

/* Forward unless dst lies inside (src, src + n): one unsigned compare. */
WM_NO_LIBCALLS void *wm_memmove(void *dst, const void *src, size_t n)
{
	int fwd = (uintptr_t)dst - (uintptr_t)src >= n;

	if (n - 1 < WM_SHORT) {
		if (WM_WORDS(dst, src))
			wm_short_words(dst, src, n);
		else if (fwd)
			wm_short_fwd(dst, src, n);
		else
			wm_bytes_bwd(END(unsigned char *, dst, n), END(const unsigned char *, src, n), n);
		return dst;
	}
	if (!n)
		return dst;
	return fwd ? wm_copy_fwd(dst, src, n) : wm_copy_bwd(dst, src, n);
}

/* memset's step 1: the WSIZE - 1 bytes from d, which reach up to its word boundary or past
 * it, into what step 2 stores. */
WM_INLINE void wm_set_head(unsigned char *d, unsigned char b)
{
	d[0] = b;
	d[1] = b;
	d[2] = b;
	if (WSIZE == 8) {
		d[3] = b;
		d[4] = b;
		d[5] = b;
		d[6] = b;
	}
}

/* Step 4: the 1 to WSIZE - 1 bytes from the word boundary dend up to e, in three stores or
 * four: the four from dend, aligned, if there are four or more, and the last three (they
 * may reach below dend, into what step 2 stored). */
WM_INLINE void wm_set_tail(unsigned char *dend, unsigned char *e, unsigned char b, word w)
{
	if (WSIZE == 8 && (((uintptr_t)e - (uintptr_t)dend) & 4))
		*(wm_u32 *)dend = (uint32_t)w;
	e[-1] = b;
	e[-2] = b;
	e[-3] = b;
}

/* 0 to 2 * WSIZE bytes from both ends at once, overlapping: no test per byte. */
WM_INLINE void wm_set_ends(unsigned char *d, unsigned char *e, unsigned char b, size_t n)
{
	if (n > 4) {
		d[0] = b;
		d[1] = b;
		d[2] = b;
		d[3] = b;
		e[-4] = b;
		e[-3] = b;
		e[-2] = b;
		e[-1] = b;
		if (WSIZE == 8 && n > 8) {
			d[4] = b;
			d[5] = b;
			d[6] = b;
			d[7] = b;
			e[-8] = b;
			e[-7] = b;
			e[-6] = b;
			e[-5] = b;
		}
		return;
	}
	if (n > 2) {
		d[1] = b;
		e[-2] = b;
	} else if (!n) {
		return;
	}
	d[0] = b;
	e[-1] = b;
}

/* Step 2 for 1 to 8 words (m < 9 * WSIZE bytes from dw on): from both ends, overlapping. */
WM_INLINE void wm_set_few(word *dw, word *dend, uintptr_t m, word w)
{
	if (m >= 3 * WSIZE) {
		if (m >= 5 * WSIZE) {
			dw[2] = w;
			dw[3] = w;
			dend[-4] = w;
			dend[-3] = w;
		}
		dw[1] = w;
		dend[-2] = w;
	}
	dw[0] = w;
	dend[-1] = w;
}

/* Step 2's block: eight words. */
WM_INLINE void wm_set8(word *dw, word w)
{
	dw[0] = w;
	dw[1] = w;
	dw[2] = w;
	dw[3] = w;
	dw[4] = w;
	dw[5] = w;
	dw[6] = w;
	dw[7] = w;
}

/* Step 2 for more than 8 words: a first block overlapping the next, blocks up to a
 * multiple of 32 words, then 32 a step. */
WM_INLINE void wm_set_many(word *dw, word *dend, word w)
{
	uintptr_t m = (uintptr_t)dend - (uintptr_t)dw;
	word *dbig = END(word *, dw, m & 31 * WSIZE);

	if (m & 7 * WSIZE) {
		wm_set8(dw, w);
		dw = END(word *, dw, m & 7 * WSIZE);
	}
	for (; dw != dbig; dw += 8)
		wm_set8(dw, w);
	for (; dw != dend; dw += 32) {
		wm_set8(dw, w);
		wm_set8(dw + 8, w);
		wm_set8(dw + 16, w);
		wm_set8(dw + 24, w);
	}
}

/* The small build: bytes up to the first word boundary, words, bytes. */
WM_INLINE void *wm_set_small(void *dst, unsigned char b, size_t n)
{
	unsigned char *d = dst;

	if (n >= WSIZE) {
		uintptr_t head = -(uintptr_t)d & WMASK;
		word w = (word)b * (~(word)0 / 0xff);
		word *dw, *dend;

		for (n -= head; head; head--)
			*d++ = b;
		dw = (word *)d;
		dend = END(word *, d, n & ~WMASK);
		while (dw != dend)
			*dw++ = w;
		d = (unsigned char *)dend;
		n &= WMASK;
	}
	while (n--)
		*d++ = b;
	return dst;
}

/* Short calls from both ends; longer ones a word at a time from dst's first boundary. */
WM_NO_LIBCALLS void *wm_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst, *e = END(unsigned char *, d, n);
	unsigned char b = (unsigned char)c;
	word *dw = (word *)(((uintptr_t)d + WMASK) & ~WMASK);
	word *dend = (word *)((uintptr_t)e & ~WMASK);
	uintptr_t m = n;	/* the bytes from dw on */
	word w = (word)b * (~(word)0 / 0xff);	/* first: its constant loads during the tests */

	if (WM_SMALL_CODE)
		return wm_set_small(dst, b, n);
	if (n <= WSIZE || (n <= 2 * WSIZE && (unsigned char *)dw != d)) {
		wm_set_ends(d, e, b, n);
		return dst;
	}
	if ((unsigned char *)dw != d) {
		wm_set_head(d, b);
		m = (uintptr_t)e - (uintptr_t)dw;
	}
	if (m <= 8 * WSIZE)
		wm_set_few(dw, dend, m, w);
	else
		wm_set_many(dw, dend, w);
	if ((unsigned char *)dend != e)
		wm_set_tail((unsigned char *)dend, e, b, w);
	return dst;
}

/* WORDMERGE_STD_NAMES (wordmerge.h): the standard names as aliases. */
#define WM_ALIAS(name, f) extern __typeof__(f) name __attribute__((__alias__(#f)))
#if !defined(WORDMERGE_STD_NAMES) || WORDMERGE_STD_NAMES == 0
#elif WORDMERGE_STD_NAMES == 1
WM_ALIAS(memcpy, wm_memcpy);
WM_ALIAS(memmove, wm_memmove);
WM_ALIAS(memset, wm_memset);
#elif WORDMERGE_STD_NAMES == 2
WM_ALIAS(__memcpy, wm_memcpy);
WM_ALIAS(__memmove, wm_memmove);
WM_ALIAS(__memset, wm_memset);
WM_ALIAS(memcpy, wm_memcpy) __attribute__((__weak__));
WM_ALIAS(memmove, wm_memmove) __attribute__((__weak__));
WM_ALIAS(memset, wm_memset) __attribute__((__weak__));
#else
#error "WORDMERGE_STD_NAMES is 0, 1 or 2 (wordmerge.h)"
#endif
