// SPDX-License-Identifier: MIT
/*
 * memcpy, memmove and memset a word at a time, never misaligned, in portable C.
 * As musl's: 1. the head, up to dst's first word boundary; 2. whole words if src
 * is then aligned; 3. else aligned source words, each destination word merged
 * from two by a pair of shifts; 4. the tail.  memmove copies backward when dst
 * lies inside the source.  For in-order cores HOLD() keeps loads, then merges,
 * then stores (docs/technique.md); WM_SMALL_CODE=1 is for the smallest code.
 */
#ifdef __KERNEL__
#include <linux/limits.h>
#include <linux/types.h>
#else
#include <stdint.h>
#endif
#include "wordmerge.h"

/* HOLD(x) emits nothing but changes x for the compiler: nothing moves across it. */
#define HOLD(x) __asm__("" : "+r"(x))
#define HOLD2(a, b) __asm__("" : "+r"(a), "+r"(b))
#define HOLD3(a, b, c) __asm__("" : "+r"(a), "+r"(b), "+r"(c))
#define HOLD4(a, b, c, d) __asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d))
#define HOLD5(a, b, c, d, e) __asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e))

#if defined(__clang__)
#define WM_NO_LIBCALLS __attribute__((__no_builtin__))
#else
#define WM_NO_LIBCALLS
#endif

#define WM_INLINE WM_NO_LIBCALLS static inline __attribute__((__always_inline__))
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
WM_NO_LIBCALLS static inline word wm_edge(const word *p, uintptr_t lo, uintptr_t hi)
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

/* The word ls/8 bytes into lo; rs = WBITS - ls, both ints (no extensions). */
#define MERGE(lo, hi, ls, rs) (DROP(lo, ls) | PUSH(hi, rs))

/* p + n past PTRDIFF_MAX is undefined: integers where an object can be that big. */
#if UINTPTR_MAX > 0xffffffffu
#define END(T, p, n) ((T)((unsigned char *)(p) + (n)))
#define START(T, p, n) ((T)((unsigned char *)(p) - (n)))
#define WORDS(lo, hi) ((size_t)((hi) - (lo)))
#else
#define END(T, p, n) ((T)((uintptr_t)(p) + (n)))
#define START(T, p, n) ((T)((uintptr_t)(p) - (n)))
#define WORDS(lo, hi) (((uintptr_t)(hi) - (uintptr_t)(lo)) / WSIZE)
#endif

/* Unrolled bodies: R8(X) is X(0) X(1) .. X(7). */
#define R4(X) X(0) X(1) X(2) X(3)
#define R8(X) R4(X) X(4) X(5) X(6) X(7)
#define R16(X) R8(X) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

/* The bits of a head's or tail's length k < WSIZE, ready before their tests. */
#define SPLIT_BITS(k, b1, b2, b4)                                 \
	uintptr_t b4 = (k) & 4, b1 = (k) & 1, b2 = (k) & 2;        \
	HOLD(b4);	/* stops the and moving down to its test */ \
	HOLD2(b1, b2)	/* the same */

/* The WSIZE bytes from s as a word, loading only words with one of the first k. */
static inline word wm_load_first(const unsigned char *s, uintptr_t k)
{
	uintptr_t off = (uintptr_t)s & WMASK;
	const word *sw = (const word *)((uintptr_t)s - off);
	word x = EDGE(sw, s, (uintptr_t)s + k);

	if (off) {
		int ls = (int)off * 8;

		x = DROP(x, ls);
		if (off + k > WSIZE)
			x |= PUSH(EDGE(sw + 1, s, (uintptr_t)s + k), WBITS - ls);
	}
	return x;
}

/* The WSIZE bytes that end at s, loading only words with one of the last k. */
static inline word wm_load_last(const unsigned char *s, uintptr_t k)
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

/* Step 4: the last r % WSIZE bytes to the aligned d, from x's first, or from s. */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_tail_fwd(void *dst, unsigned char *d, uintptr_t r, word x, const unsigned char *s)
{
	if (WM_SMALL_CODE) {
		while (r--) {
			*d++ = *s++;
			HOLD(s);	/* stops a call to memcpy */
		}
	} else {
		SPLIT_BITS(r, r1, r2, r4);
		if (WSIZE == 8 && r4) {
			*(wm_u32 *)d = (uint32_t)FIRST(x, 32);
			x = DROP(x, WBITS == 64 ? 32 : 0);
			d += 4;
		}
		if (r2) {
			*(wm_u16 *)d = (uint16_t)FIRST(x, 16);
			x = DROP(x, 16);
			d += 2;
		}
		if (r1)
			*d = (unsigned char)FIRST(x, 8);
	}
	HOLD(dst);	/* stops the caller keeping dst across the call: a tail call */
	return dst;
}

/* The mirror image, below e, from x's last bytes; x last saves GCC a move. */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_tail_bwd(void *dst, unsigned char *e, uintptr_t r, const unsigned char *s, word x)
{
	if (WM_SMALL_CODE) {
		while (r--) {
			*--e = *--s;
			HOLD(s);	/* stops a call to memmove */
		}
	} else {
		SPLIT_BITS(r, r1, r2, r4);
		if (WSIZE == 8 && r4) {
			e -= 4;
			*(wm_u32 *)e = (uint32_t)LAST(x, 32);
			x = PUSH(x, WBITS == 64 ? 32 : 0);
		}
		if (r2) {
			e -= 2;
			*(wm_u16 *)e = (uint16_t)LAST(x, 16);
			x = PUSH(x, 16);
		}
		if (r1)
			*(e - 1) = (unsigned char)LAST(x, 8);
	}
	HOLD(dst);	/* stops the caller keeping dst across the call: a tail call */
	return dst;
}

/* Step 1: the k < WSIZE bytes up to d's first word boundary (below e's last). */
static inline void wm_head_fwd(unsigned char *d, const unsigned char *s, uintptr_t k)
{
	if (WM_SMALL_CODE) {
		while (k--) {
			*d++ = *s++;
			HOLD(s);	/* stops a call to memcpy */
		}
	} else {
		word x = wm_load_first(s, k);
		SPLIT_BITS(k, k1, k2, k4);
		if (k1) {
			*d = (unsigned char)FIRST(x, 8);
			x = DROP(x, 8);
			d += 1;
		}
		if (k2) {
			*(wm_u16 *)d = (uint16_t)FIRST(x, 16);
			x = DROP(x, 16);
			d += 2;
		}
		if (WSIZE == 8 && k4)
			*(wm_u32 *)d = (uint32_t)FIRST(x, 32);
	}
}

static inline void wm_head_bwd(unsigned char *e, const unsigned char *s, uintptr_t k)
{
	if (WM_SMALL_CODE) {
		while (k--) {
			*--e = *--s;
			HOLD(s);	/* stops a call to memmove */
		}
	} else {
		word x = wm_load_last(s, k);
		SPLIT_BITS(k, k1, k2, k4);
		if (k1) {
			e -= 1;
			*e = (unsigned char)LAST(x, 8);
			x = PUSH(x, 8);
		}
		if (k2) {
			e -= 2;
			*(wm_u16 *)e = (uint16_t)LAST(x, 16);
			x = PUSH(x, 16);
		}
		if (WSIZE == 8 && k4)
			*(wm_u32 *)(e - 4) = (uint32_t)LAST(x, 32);
	}
}

#define LOAD_FWD(i) w##i = sw[i];
#define STORE_FWD(i) dw[i] = w##i;
#define LOAD_FWD2(i) w##i = sw[8 + (i)];
#define STORE_FWD2(i) dw[(i) - 8] = w##i;
#define LOAD_BWD(i) w##i = sw[-1 - (i)];
#define STORE_BWD(i) dw[-1 - (i)] = w##i;
#define LOAD_BWD2(i) w##i = sw[-9 - (i)];
#define STORE_BWD2(i) dw[7 - (i)] = w##i;

/* Step 2: one word, pairs, then sixteen a loop; all loads before stores, for memmove. */
static inline const word *wm_words_fwd(word *dw, const word *sw, word *dend)
{
	word *dblk = dw + (WORDS(dw, dend) & 15);
	word w0, w1, w2, w3, w4, w5, w6, w7;

	if (WM_SMALL_CODE) {
		/* Bottom-tested: at -Os GCC keeps a while loop's test on top. */
		if (dw != dend)
			do {
				*dw++ = *sw++;
				HOLD(sw);	/* stops a call to memcpy */
			} while (dw != dend);
		return sw;
	}
	if (((uintptr_t)dend - (uintptr_t)dw) & WSIZE)
		*dw++ = *sw++;
	while (dw != dblk) {
		w0 = sw[0];
		w1 = sw[1];
		HOLD2(w0, w1);	/* stops a store moving up between the loads */
		dw[0] = w0;
		dw[1] = w1;
		dw += 2;
		sw += 2;
		HOLD(sw);	/* stops a call to memcpy */
	}
	while (dw != dend) {
		R8(LOAD_FWD)
		HOLD4(w0, w1, w2, w3);	/* stops a store moving up between the loads */
		HOLD4(w4, w5, w6, w7);	/* (two of four: x86-32 has not eight registers) */
		R8(STORE_FWD)
		dw += 16;
		HOLD2(dw, sw);	/* stops dw's step moving down to the stores */
		R8(LOAD_FWD2)
		sw += 16;
		HOLD4(w0, w1, w2, w3);	/* stops a store moving up between the loads */
		HOLD5(w4, w5, w6, w7, sw);	/* and sw's step moving down */
		R8(STORE_FWD2)
	}
	return sw;
}

/* Step 2, backward: the same below the word-aligned ends, down to dstop. */
static inline const word *wm_words_bwd(word *dw, const word *sw, word *dstop)
{
	word *dblk = dw - (WORDS(dstop, dw) & 15);
	word w0, w1, w2, w3, w4, w5, w6, w7;

	if (WM_SMALL_CODE) {
		if (dw != dstop)
			do {
				*--dw = *--sw;
				HOLD(sw);	/* stops a call to memmove */
			} while (dw != dstop);
		return sw;
	}
	while (dw != dblk) {
		*--dw = *--sw;
		HOLD(sw);	/* stops a call to memmove */
	}
	/* Said again, so that GCC does not compute dw anew from the length. */
	dw = dblk;
	while (dw != dstop) {
		R8(LOAD_BWD)
		HOLD4(w0, w1, w2, w3);	/* stops a store moving up between the loads */
		HOLD4(w4, w5, w6, w7);	/* (two of four: x86-32 has not eight registers) */
		R8(STORE_BWD)
		dw -= 16;
		R8(LOAD_BWD2)
		sw -= 16;
		HOLD4(w0, w1, w2, w3);	/* stops a store moving up between the loads */
		HOLD5(w4, w5, w6, w7, sw);	/* and sw's step moving down */
		R8(STORE_BWD2)
	}
	return sw;
}

/* A merging loop's state in either direction, with EDGE()'s bounds. */
struct wm_merge {
	const word *sw;
	word *dw;
	int fwd, ls, rs;
	uintptr_t lo, hi;
};

/* Source word i of a block, counted from the carried word 0 the copy's way. */
static inline word wm_src(const struct wm_merge *m, int i)
{
	return EDGE(m->fwd ? m->sw + i : m->sw - i, m->lo, m->hi);
}

/* A destination word's two halves: from the nearer source word, the farther. */
static inline word wm_near(const struct wm_merge *m, word w)
{
	return m->fwd ? DROP(w, m->ls) : PUSH(w, m->rs);
}
static inline word wm_far(const struct wm_merge *m, word w)
{
	return m->fwd ? PUSH(w, m->rs) : DROP(w, m->ls);
}

#define STORE_MERGED(i) m->dw[m->fwd ? (i) - 8 : 7 - (i)] = d##i;

/* d(i) = near(w(i)) | far(w(i + 1)); each hold stops a step moving up or a load down. */
WM_INLINE word wm_merge8(struct wm_merge *m, word w0)
{
	word w1, w2, w3, w4, w5, w6, w7, w8;
	word n0, n1, n2, n3, n4, n5, n6, n7, f0, f1, f2, f3, f4, f5, f6, f7;
	word d0, d1, d2, d3, d4, d5, d6, d7;

	w1 = wm_src(m, 1);
	n0 = wm_near(m, w0);
	HOLD3(w1, n0, m->sw);
	w2 = wm_src(m, 2);
	m->dw += m->fwd ? 8 : -8;
	HOLD4(w2, m->sw, w1, m->dw);
	w3 = wm_src(m, 3);
	f0 = wm_far(m, w1);
	HOLD4(w3, f0, m->sw, w1);
	w4 = wm_src(m, 4);
	n1 = wm_near(m, w1);
	HOLD4(w4, n1, m->sw, n0);
	w5 = wm_src(m, 5);
	d0 = n0 | f0;
	HOLD3(w5, d0, m->sw);
	w6 = wm_src(m, 6);
	f1 = wm_far(m, w2);
	HOLD4(w6, f1, m->sw, w2);
	w7 = wm_src(m, 7);
	n2 = wm_near(m, w2);
	HOLD3(w7, n2, m->sw);
	w8 = wm_src(m, 8);
	d1 = n1 | f1;
	HOLD4(w8, d1, m->sw, w3);
	f2 = wm_far(m, w3);
	n3 = wm_near(m, w3);
	HOLD4(f2, n3, n2, w4);
	d2 = n2 | f2;
	f3 = wm_far(m, w4);
	HOLD3(d2, f3, w4);
	n4 = wm_near(m, w4);
	d3 = n3 | f3;
	HOLD3(n4, d3, w5);
	f4 = wm_far(m, w5);
	n5 = wm_near(m, w5);
	HOLD2(f4, w6);
	d4 = n4 | f4;
	f5 = wm_far(m, w6);
	HOLD4(d4, f5, w6, n5);
	n6 = wm_near(m, w6);
	d5 = n5 | f5;
	HOLD3(n6, d5, w7);
	f6 = wm_far(m, w7);
	n7 = wm_near(m, w7);
	HOLD3(f6, n7, w8);
	d6 = n6 | f6;
	f7 = wm_far(m, w8);
	HOLD3(d6, f7, m->sw);
	d7 = n7 | f7;
	m->sw += m->fwd ? 8 : -8;
	HOLD3(d7, m->sw, m->dw);
	R8(STORE_MERGED)
	return w8;
}

/* Steps 3 and 4: unaligned s to aligned d; the bound's low bits are the bytes left. */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_merge_fwd(void *dst, const unsigned char *s, size_t n, unsigned char *d)
{
	uintptr_t off = (uintptr_t)s & WMASK, slim = (uintptr_t)s + n;	/* n changes below */
	const word *sw = (const word *)((uintptr_t)s - off);
	word *dw = (word *)d, *dend;
	int ls = (int)off * 8, rs = WBITS - ls;
	word lo = EDGE(sw, s, slim), hi;

	if (WM_SMALL_CODE) {
		dend = END(word *, d, n & ~WMASK);
		if (dw != dend)
			do {
				hi = EDGE(++sw, s, slim);
				*dw++ = MERGE(lo, hi, ls, rs);
				lo = hi;
				HOLD(sw);	/* stops GCC computing sw anew after the loop */
			} while (dw != dend);
	} else {
		if (n >= 8 * WSIZE) {
			uintptr_t bound = (uintptr_t)d + n - 8 * WSIZE;
			struct wm_merge m = { sw, dw, 1, ls, rs, (uintptr_t)s, slim };
			do
				lo = wm_merge8(&m, lo);
			while ((uintptr_t)m.dw <= bound);
			sw = m.sw;
			dw = m.dw;
			n = bound - (uintptr_t)dw;
		}
		/* The last 0..7 words: pairs, each loaded before it is stored, then one. */
		dend = (word *)((unsigned char *)dw + (n & 6 * WSIZE));
		while (dw != dend) {
			word m0 = DROP(lo, ls);
			hi = EDGE(sw + 1, s, slim);
			lo = EDGE(sw + 2, s, slim);
			HOLD2(hi, lo);	/* stops a store moving up between the loads */
			dw[0] = m0 | PUSH(hi, rs);
			dw[1] = MERGE(hi, lo, ls, rs);
			dw += 2;
			sw += 2;
			HOLD2(dw, sw);	/* stops a call to memcpy */
		}
		if (n & WSIZE) {
			hi = EDGE(++sw, s, slim);
			*dw++ = MERGE(lo, hi, ls, rs);
			lo = hi;
		}
	}
	n &= WMASK;
	if (!n)
		return dst;
	if (!WM_SMALL_CODE) {
		lo = DROP(lo, ls);
		if (n * 8 > (uintptr_t)rs)
			lo |= PUSH(EDGE(sw + 1, (uintptr_t)s, (uintptr_t)sw + off + n), rs);
	}
	return wm_tail_fwd(dst, (unsigned char *)dw, n, lo, (const unsigned char *)sw + off);
}

/* The mirror image: the n bytes below s to those below e; hi carries. */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_merge_bwd(void *dst, const unsigned char *s, size_t n, unsigned char *e)
{
	uintptr_t off = (uintptr_t)s & WMASK, slo = (uintptr_t)s - n;	/* n changes below */
	const word *sw = (const word *)((uintptr_t)s - off);
	word *dw = (word *)e, *dstop;
	int ls = (int)off * 8, rs = WBITS - ls;
	word hi = EDGE(sw, slo, s), lo;

	if (WM_SMALL_CODE) {
		dstop = START(word *, e, n & ~WMASK);
		if (dw != dstop)
			do {
				lo = EDGE(--sw, slo, s);
				*--dw = MERGE(lo, hi, ls, rs);
				hi = lo;
				HOLD(dw);	/* stops GCC computing dw anew after the loop */
			} while (dw != dstop);
	} else {
		if (n >= 8 * WSIZE) {
			uintptr_t bound = (uintptr_t)e - n + 8 * WSIZE;
			struct wm_merge m = { sw, dw, 0, ls, rs, slo, (uintptr_t)s };
			HOLD(bound);	/* stops GCC keeping e - n in a register of its own */
			do
				hi = wm_merge8(&m, hi);
			while ((uintptr_t)m.dw >= bound);
			sw = m.sw;
			dw = m.dw;
			n = (uintptr_t)dw - bound;
		}
		dstop = (word *)((unsigned char *)dw - (n & 6 * WSIZE));
		while (dw != dstop) {
			word m0 = PUSH(hi, rs);
			lo = EDGE(sw - 1, slo, s);
			hi = EDGE(sw - 2, slo, s);
			HOLD2(lo, hi);	/* stops a store moving up between the loads */
			dw[-1] = DROP(lo, ls) | m0;
			dw[-2] = MERGE(hi, lo, ls, rs);
			dw -= 2;
			sw -= 2;
			HOLD2(dw, sw);	/* stops a call to memmove */
		}
		if (n & WSIZE) {
			lo = EDGE(--sw, slo, s);
			*--dw = MERGE(lo, hi, ls, rs);
			hi = lo;
		}
	}
	n &= WMASK;
	if (!n)
		return dst;
	if (!WM_SMALL_CODE) {
		hi = PUSH(hi, rs);
		if (n * 8 > (uintptr_t)ls)
			hi |= DROP(EDGE(sw - 1, (uintptr_t)sw + off - n, s), ls);
	}
	return wm_tail_bwd(dst, (unsigned char *)dw, n, (const unsigned char *)sw + off, hi);
}

/* n >= WSIZE bytes forward, for memmove too; outlined so dst is not saved. */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_copy_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uintptr_t head = -(uintptr_t)d & WMASK, soff = (uintptr_t)s & WMASK;
	const word *sw;
	word *dend;

	/* 1. The speed build tests dst's offset, which is ready before the head's length. */
	if (WM_SMALL_CODE ? head != 0 : ((uintptr_t)d & WMASK) != 0) {
		wm_head_fwd(d, s, head);
		d += head;
		s += head;
		n -= head;
		soff = (uintptr_t)s & WMASK;
	}
	/* 3. and 4. when src is not word-aligned now (its offset taken on entry). */
	if (soff)
		return wm_merge_fwd(dst, s, n, d);
	/* 2. Co-aligned: whole words. */
	dend = END(word *, d, n & ~WMASK);
	n &= WMASK;
	HOLD(n);	/* stops the tail's length moving down after the loop */
	sw = wm_words_fwd((word *)d, (const word *)s, dend);
	/* 4. The tail, from one aligned source word. */
	if (!n)
		return dst;
	return wm_tail_fwd(dst, (unsigned char *)dend, n,
			   WM_SMALL_CODE ? 0 : EDGE(sw, sw, (uintptr_t)sw + n), (const unsigned char *)sw);
}

/* Backward copy of n >= WSIZE bytes: the mirror image, for overlapping memmove. */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_copy_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = END(unsigned char *, dst, n);
	const unsigned char *s = END(const unsigned char *, src, n);
	uintptr_t head = (uintptr_t)d & WMASK;
	uintptr_t soff = (uintptr_t)s & WMASK;
	const word *sw;
	word *dstop;

	if (head) {
		wm_head_bwd(d, s, head);
		d -= head;
		s -= head;
		n -= head;
		soff = (uintptr_t)s & WMASK;
	}
	if (soff)
		return wm_merge_bwd(dst, s, n, d);
	dstop = START(word *, d, n & ~WMASK);
	sw = wm_words_bwd((word *)d, (const word *)s, dstop);
	if (!(n & WMASK))
		return dst;
	return wm_tail_bwd(dst, (unsigned char *)dstop, n & WMASK, (const unsigned char *)sw,
			   WM_SMALL_CODE ? 0 : EDGE(sw - 1, src, sw));
}

/* Up to WM_SMALL_MAX bytes, where aligning costs more than it saves. */
#define WM_SMALL_MAX (WM_SMALL_CODE ? WSIZE - 1 : 2 * WSIZE)
#define WM_SMALL_WORDS(d, s) (!WM_SMALL_CODE && !(((uintptr_t)(d) | (uintptr_t)(s)) & WMASK))

WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_small_words(void *dst, const void *src, size_t n)
{
	word *dw = dst;
	const word *sw = src;
	word w0 = EDGE(sw, src, (uintptr_t)src + n), x = w0;

	if (n & (2 * WSIZE | WSIZE)) {
		if (n > WSIZE)
			x = EDGE(sw + 1, src, (uintptr_t)src + n);
		dw[0] = w0;
		dw++;
		if (n & 2 * WSIZE) {
			dw[0] = x;
			return dst;
		}
		if (!(n & WMASK))
			return dst;
	}
	/* n's low bits are the tail (below one word, n >= 1 is all tail). */
	return wm_tail_fwd(dst, (unsigned char *)dw, n, x, (const unsigned char *)sw);
}

#define LOAD_B(i) b##i = s[i];
#define STORE_B(i) d[i] = b##i;

WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_bytes_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	unsigned char b0, b1, b2, b3;

	if (!WM_SMALL_CODE) {
		unsigned char *end4 = d + (n & ~(size_t)3);
		for (; d != end4; d += 4, s += 4) {
			R4(LOAD_B)
			HOLD4(b0, b1, b2, b3);	/* stops a store moving up between the loads */
			R4(STORE_B)
			HOLD(s);	/* stops a call to memcpy */
		}
		n &= 3;
	}
	while (n--) {
		*d++ = *s++;
		HOLD(s);	/* stops a call to memcpy */
	}
	HOLD(dst);	/* stops the caller keeping dst across the call: a tail call */
	return dst;
}

WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_bytes_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = END(unsigned char *, dst, n);
	const unsigned char *s = END(const unsigned char *, src, n);

	while (n--) {
		*--d = *--s;
		HOLD(s);	/* stops a call to memmove */
	}
	HOLD(dst);	/* stops the caller keeping dst across the call: a tail call */
	return dst;
}

/* n - 1 < WM_SMALL_MAX: n == 0 wraps round, tested first on the other side. */
WM_NO_LIBCALLS void *wm_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	if (WM_SMALL_CODE ? n <= WM_SMALL_MAX : n - 1 < WM_SMALL_MAX) {
		if (WM_SMALL_WORDS(dst, src))
			return wm_small_words(dst, src, n);
		return wm_bytes_fwd(dst, src, n);
	}
	if (!WM_SMALL_CODE && !n)
		return dst;
	return wm_copy_fwd(dst, src, n);
}

/* Forward unless dst lies inside (src, src + n): one unsigned compare. */
WM_NO_LIBCALLS void *wm_memmove(void *dst, const void *src, size_t n)
{
	int fwd = (uintptr_t)dst - (uintptr_t)src >= n;

	if (WM_SMALL_CODE ? n <= WM_SMALL_MAX : n - 1 < WM_SMALL_MAX) {
		if (WM_SMALL_WORDS(dst, src))
			return wm_small_words(dst, src, n);
		return fwd ? wm_bytes_fwd(dst, src, n) : wm_bytes_bwd(dst, src, n);
	}
	if (!WM_SMALL_CODE && !n)
		return dst;
	return fwd ? wm_copy_fwd(dst, src, n) : wm_copy_bwd(dst, src, n);
}

#define SET_FIRST(i) d[i] = b;
#define SET_LAST(i) e[(i) - 4] = b;
#define SET_FIRST2(i) d[4 + (i)] = b;
#define SET_LAST2(i) e[(i) - 8] = b;
#define SET_WORD(i) dw[i] = w;
#define SET_PAIR(i) dbig[i] = w; dbig[(i) + 16] = w;

/* 1 to 2 * WSIZE bytes from both ends at once, overlapping: no test per byte. */
WM_INLINE void *wm_set_ends(void *dst, unsigned char *d, unsigned char *e, unsigned char b,
			    uintptr_t n, uintptr_t wsize)
{
	HOLD(n);	/* stops a copy of these stores for each way in */
	if (n > 4) {
		R4(SET_FIRST)
		R4(SET_LAST)
		if (WSIZE == 4 || n <= wsize)
			return dst;
		R4(SET_FIRST2)
		R4(SET_LAST2)
		return dst;
	}
	d[0] = b;
	e[-1] = b;
	if (n > 2) {
		d[1] = b;
		e[-2] = b;
		HOLD(e);	/* stops clang merging these with the longer ends into one block */
	}
	return dst;
}

/* Steps 1 and 4: WSIZE - 1 bytes from p the way step goes; a word stores some again. */
WM_INLINE void wm_set_bytes(unsigned char *p, int step, unsigned char b)
{
	p[0] = b;
	p[step] = b;
	p[2 * step] = b;
	if (WSIZE == 8) {
		p[3 * step] = b;
		p[4 * step] = b;
		p[5 * step] = b;
		p[6 * step] = b;
	}
}

/* b in every byte of a word; ones is ~0 / 0xff, loaded on entry. */
WM_INLINE word wm_spread(unsigned char b, word ones)
{
	word w;

	HOLD(ones);	/* stops the multiply moving up to the constant's load */
	w = (word)b * ones;
	HOLD(w);	/* stops the multiply moving up above the length's tests */
	return w;
}

/* Step 2 for 1 to 8 words: from both ends at once, overlapping. */
WM_INLINE void wm_set_few(word *dw, word *dend, uintptr_t n, word w)
{
	if (n >= 3 * WSIZE) {
		if (n >= 5 * WSIZE) {
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

/* The small build: bytes up to the first word boundary, words, bytes. */
WM_INLINE void *wm_set_small(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	word v = (unsigned char)c;

	if (n >= WSIZE) {
		word ones = ~(word)0 / 0xff;
		uintptr_t head = -(uintptr_t)d & WMASK;
		word *dw, *dend;

		n -= head;
		while (head--) {
			*d++ = (unsigned char)v;
			HOLD(v);	/* stops a call to memset */
		}
		dw = (word *)d;
		dend = END(word *, d, n & ~WMASK);
		if (dw != dend) {
			word w = wm_spread((unsigned char)v, ones);

			do
				*dw++ = w;
			while (dw != dend);
		}
		d = (unsigned char *)dend;
		n &= WMASK;
	}
	while (n--) {
		*d++ = (unsigned char)v;
		HOLD(v);	/* stops a call to memset */
	}
	return dst;
}

/* Short calls take two decisions; long ones eight words a loop, then 32. */
WM_NO_LIBCALLS void *wm_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst, *e = END(unsigned char *, d, n);
	unsigned char b = (unsigned char)c;
	uintptr_t wsize = WSIZE;
	word ones, w;
	word *dw, *dend, *dbig;

	if (WM_SMALL_CODE)
		return wm_set_small(dst, c, n);
	HOLD(wsize);	/* stops GCC loading the constant anew for the second test */
	if (n > wsize)
		goto words;
	if (!n)
		return dst;
bytes:
	return wm_set_ends(dst, d, e, b, n, wsize);
words:
	ones = ~(word)0 / 0xff;
	dw = (word *)(((uintptr_t)d + WMASK) & ~WMASK);
	HOLD(ones);	/* stops the multiply moving up to the constant's load */
	if ((unsigned char *)dw != d) {
		if (n <= 2 * WSIZE)
			goto bytes;
		wm_set_bytes(d, 1, b);
		n = (uintptr_t)e - (uintptr_t)dw;
	}
	dend = (word *)((uintptr_t)e & ~WMASK);
	HOLD(dend);	/* stops a register copy of dend for the big loop */
	if (n > 8 * WSIZE) {
		dbig = (word *)((unsigned char *)dw + (n & 31 * WSIZE));
		w = wm_spread(b, ones);
		if (!(n & 31 * WSIZE))
			goto big;
		if (n & 7 * WSIZE) {
			R8(SET_WORD)
			dw = (word *)((unsigned char *)dw + (n & 7 * WSIZE));
		}
		while (dw != dbig) {
			R8(SET_WORD)
			dw += 8;
		}
		if (dw == dend)
			goto tail;
big:
		do {
			R16(SET_PAIR)
			dbig += 32;
		} while (dbig != dend);
	} else {
		/* Its own tail, laid out right after the stores. */
		wm_set_few(dw, dend, n, wm_spread(b, ones));
		if ((unsigned char *)dend != e)
			wm_set_bytes(e - 1, -1, b);
		return dst;
	}
tail:
	if ((unsigned char *)dend != e)
		wm_set_bytes(e - 1, -1, b);
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
