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
 * the mirror image of the forward one.  wm_copy_fwd() and wm_copy_bwd() are
 * those four steps, one helper per step.
 *
 * Two variants, one source: both always compile, and the compiler folds the
 * plain `if (WM_SMALL_CODE)` tests away.
 *   - The default, for speed on in-order cores such as SiFive's U54 and U74,
 *     where an instruction that needs a load's result waits for it and the
 *     core has one memory pipe.  The word loops load a group of source
 *     words into locals and only then store them: two groups of eight per
 *     iteration when co-aligned, two groups of four when merging (more ran
 *     out of registers).  The words that do not fill an iteration go
 *     before the loop when co-aligned (forward: an odd one, then pairs;
 *     backward: one at a time) and after it when merging (pairs, then an
 *     odd one).  memset stores 32 words per iteration and the words above
 *     the last multiple of 32 four at a time, with an overlapping first
 *     block instead of a loop for the odd words; its head and tail are
 *     WSIZE - 1 byte stores each, overlapping the words, whatever their
 *     lengths; its calls of up to two words store bytes from both ends at
 *     once, as musl's memset does.  The copies' heads and tails are not
 *     byte loops: the source bytes they need are merged into one word,
 *     written with at most one byte, one halfword and one word store, each
 *     naturally aligned.  Calls of up to two words take a short path of
 *     their own.
 *   - WM_SMALL_CODE=1 (make LIB_SIZE=small, built -Os), for firmware that
 *     wants the smallest code: byte loops for head and tail, one word per
 *     iteration; still word-wise and still never misaligned.
 * Both are measured by make bench-check (instruction counts) and make cycles
 * (SiFive U74/U54 pipeline models).
 *
 * Every word, halfword and byte access in this C code is to an address that
 * is a multiple of its size: on cores that trap misaligned accesses (SiFive
 * U54/U74, where OpenSBI then emulates them ~100x slower) we never trap.
 * Nothing is stored outside [dst, dst + n).  The loops load whole aligned
 * words inside [src, src + n); only the source words at the two ends of a
 * call can also hold bytes outside it (EDGE() below says how they are read
 * and how lib stays inside the objects under a checker).  Addresses that
 * can leave the objects, such as the aligned word below src, are computed
 * as integers (uintptr_t), not by pointer arithmetic.
 *
 * Compilers may turn a byte loop into a call to memcpy or memset, which here
 * would be a call to ourselves: HOLD() and WM_NO_LIBCALLS below switch that
 * off in the source, whatever the flags (the image's build adds
 * -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns all the
 * same); make test checks that the object calls nothing (nm -u) for every
 * compiler and level, built without those flags.  A compiler may also merge
 * neighbouring byte accesses into one wider access, which on a target
 * without fast misaligned access it only does where alignment is known: on
 * RISC-V that is the default tuning, and the image's build says so
 * explicitly with -mstrict-align.
 */
/*
 * The integer types: the C library's <stdint.h>, or inside a Linux kernel
 * tree (built -nostdinc, without the compiler's headers) the kernel's own,
 * which define the same names (uintptr_t, uint32_t, uint16_t, size_t,
 * UINTPTR_MAX).  wordmerge.h does the same for size_t.
 */
#ifdef __KERNEL__
#include <linux/limits.h>
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#include "wordmerge.h"

/*
 * The shape of the code comes from the source, not from compiler options,
 * so that it holds with the flags of whoever builds this file (GCC or
 * clang, any -O level, with or without -ffreestanding or an optimize
 * attribute).  HOLD(x) is an empty asm statement that takes x in a
 * register and gives it back changed, as far as the compiler knows.  It
 * emits no instruction; what it buys:
 *   - at the end of a loop's body, on the source pointer (memset: on the
 *     value): the compiler no longer sees a copy or a fill that it could
 *     turn into a call to memcpy or memset (here a call to ourselves);
 *     on the word loops' pointers: nor can it recompute them after the
 *     loop from their start and the length, which kept both values alive
 *     through the loop and ran GCC out of registers;
 *   - on a group of words (HOLD4: the loaded words of a co-aligned
 *     group, the merged words of a merging one): every load of the group
 *     comes before its first store, which schedulers (clang's) otherwise
 *     interleave again;
 *   - on the dst that a helper returns, at its end: the caller cannot
 *     tell that the result is its own dst, so the call stays a tail call
 *     (clang would otherwise keep dst in a saved register across a call).
 * clang's no_builtin attribute also keeps it from calling for its idioms.
 */
#define HOLD(x) __asm__("" : "+r"(x))
#define HOLD2(a, b) __asm__("" : "+r"(a), "+r"(b))
#define HOLD3(a, b, c) __asm__("" : "+r"(a), "+r"(b), "+r"(c))
#define HOLD4(a, b, c, d) __asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d))

#if defined(__clang__)
#define WM_NO_LIBCALLS __attribute__((__no_builtin__))
#else
#define WM_NO_LIBCALLS
#endif

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

/*
 * Byte order.  A word loaded from memory holds its bytes "first" to "last"
 * in address order.  DROP(x, b) discards the first b bits' worth of bytes,
 * moving the rest towards the first position; PUSH(x, b) moves the bytes b
 * bits towards the last position.  FIRST(x, n) and LAST(x, n) are the first
 * and last n bits' worth of bytes, as a value to store with an n-bit store.
 * AT(b, i) is the byte b as the word's i-th byte in address order.
 */
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

/*
 * The source words at the ends of a call.  When src or src + n is not
 * word-aligned, the aligned word that holds the first (or the last) source
 * byte also holds bytes outside [src, src + n); so may the last word a
 * merging loop loads.  EDGE(p, lo, hi) is such a word: the aligned word at
 * p, of which only the bytes in [lo, hi) are used.
 *   - By default it is one aligned word load, as in Linux's word-at-a-time
 *     code (read_word_at_a_time()): the word never crosses a word boundary,
 *     so never a page, and its bytes outside [lo, hi) are shifted away.
 *   - Under a checker that knows each object's exact end, that watches
 *     every byte for races (another thread may own the bytes next to an
 *     object: a word over them is a race report on a correct program), or
 *     that tracks uninitialised bytes (those past an object's end are
 *     often padding, and HOLD() hands the word to an asm statement, which
 *     MemorySanitizer checks as a use), the bytes outside are not read at
 *     all (WM_EXACT): AddressSanitizer (GCC and clang), HWASan,
 *     ThreadSanitizer and MemorySanitizer are seen from the compiler's
 *     macros, and so are the kernel's KASAN and KCSAN, selected by the
 *     macros those kernels define (the same ones: they build with
 *     -fsanitize=kernel-address, kernel-hwaddress or thread).  The host
 *     tests run lib under the user-space ones only; a kernel's checker is
 *     tested where docs/checks.md says so.  -DWM_EXACT=1 asks for it under any
 *     other (Valgrind's memcheck with --partial-loads-ok=no, memory
 *     tagging, capability hardware), and -DWM_EXACT=0 keeps the word
 *     loads under any.  The word is then loaded whole only when it lies
 *     inside [lo, hi), else byte by byte from the bytes inside.  Every load is then inside the caller's
 *     objects and is one the checker instruments, so the checker itself
 *     checks the caller's exact ranges: a call that runs past its object is
 *     still reported, at the first byte outside.
 * The default build's code does not change with this: EDGE(p, lo, hi) is
 * *p, with lo and hi cast to void (no code: they are plain values, and a
 * bound kept for EDGE alone is then not an unused variable).
 */
#ifndef WM_EXACT
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_HWADDRESS__) || defined(__SANITIZE_THREAD__)
#define WM_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(hwaddress_sanitizer) || \
	__has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define WM_EXACT 1
#endif
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

/*
 * The word that starts ls/8 bytes into `lo`, where `lo` is the aligned
 * source word at the lower address and `hi` the one after it; rs is
 * WBITS - ls.  0 < ls < WBITS, so neither shift is by the full width.  The
 * shift amounts are ints computed once per call: unsigned shift arithmetic
 * made GCC add extensions inside the loops.
 */
#define MERGE(lo, hi, ls, rs) (DROP(lo, ls) | PUSH(hi, rs))

/*
 * Lengths past PTRDIFF_MAX.  GCC takes the offset of a pointer addition as a
 * signed number: with a length above PTRDIFF_MAX (more than 2 GiB on a
 * 32-bit target), p + n is to GCC an overflow, undefined behaviour that the
 * optimiser may exploit (and UBSan's pointer-overflow check reports), and so
 * is a difference of two pointers that far apart.  So every offset that can
 * reach the length is added by END(T, p, n) or START(T, p, n), the address
 * of byte n above or below p (a pointer into the caller's object still,
 * since n never exceeds what is left of it), and the words between two
 * word pointers are WORDS(lo, hi).  Pointer arithmetic proper is kept to
 * offsets below 32 words (loop steps, the odd words).  Where an object can
 * be larger than PTRDIFF_MAX, on 32-bit targets, these compute as integers.
 * On 64-bit targets no object comes near 2^63 bytes (no address space does:
 * RISC-V's Sv57 and x86-64's 5-level paging have 2^57), so they stay
 * pointer arithmetic there: with integer ends, GCC 12 for rv64 kept extra
 * registers and moves (up to 22 more instructions a call, measured with
 * make cycles-compare).
 */
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

/* ---- heads and tails: the source bytes merged into one word ------------- */

/*
 * The bits of a head's or a tail's length k (< WSIZE) taken out at once,
 * before the first test of one: in the U74's model an ALU result is ready
 * 3 cycles after it issues, so a bit taken out of k right before its test
 * made the branch wait that long.  b1, b2 and b4 are k & 1, k & 2 and k & 4,
 * each held; b4 first, which a tail tests first.  Holding the bits, not k,
 * leaves k itself free: held, it cost a copy wherever k was still needed
 * after (the forward copy's head: d, s and n step by it).
 */
#define SPLIT_BITS(k, b1, b2, b4)                          \
	uintptr_t b4 = (k) & 4, b1 = (k) & 1, b2 = (k) & 2; \
	if (WSIZE == 8)                                    \
		HOLD(b4);                                  \
	HOLD2(b1, b2)

/*
 * The WSIZE source bytes starting at s, as one word, loading only aligned
 * words that hold at least one of the first k of them (1 <= k <= WSIZE).
 */
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

/*
 * The WSIZE source bytes that end at s, as one word, loading only aligned
 * words that hold at least one of the last k of them (1 <= k <= WSIZE).
 */
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

/*
 * Store the first k bytes of x from d, which ends them at a word boundary,
 * with naturally aligned stores: a byte if k is odd, then a halfword, then
 * (on 64-bit) a word.  Tested on k's bits (SPLIT_BITS), not on d's as it
 * moves.
 */
static inline void wm_store_head(unsigned char *d, word x, uintptr_t k)
{
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

/*
 * Step 4 of a copy, forward: the last r < WSIZE bytes, to the word-aligned
 * d; returns dst.  x holds them as its first bytes, s points at them: the
 * speed-first variant stores x (a word, then a halfword, then a byte, each
 * naturally aligned), the size-first one copies bytes from s (GCC
 * drops the argument a variant does not use).  Shared, in tail position, by
 * the co-aligned, the merging and the short copy.  The speed-first variant
 * reads r's low bits only: the short copy passes its whole length.
 */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_tail_fwd(void *dst, unsigned char *d, uintptr_t r, word x, const unsigned char *s)
{
	if (WM_SMALL_CODE) {
		while (r--) {
			*d++ = *s++;
			HOLD(s);
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
	HOLD(dst);
	return dst;
}

/*
 * Store the last k bytes of x below the end e, which starts them at a word
 * boundary; the mirror image of wm_store_head.
 */
static inline void wm_store_head_bwd(unsigned char *e, word x, uintptr_t k)
{
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

/*
 * Step 4, backward: the first r < WSIZE bytes, to those below the
 * word-aligned end e; x holds them as its last bytes, and they end at s.
 * Shared by both backward copies.  x comes last: as the third argument,
 * GCC moves n out of its register in wm_merge_bwd, one instruction a call.
 */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_tail_bwd(void *dst, unsigned char *e, uintptr_t r, const unsigned char *s, word x)
{
	if (WM_SMALL_CODE) {
		while (r--) {
			*--e = *--s;
			HOLD(s);
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
	HOLD(dst);
	return dst;
}

/*
 * Step 1: the k < WSIZE bytes from s to d that end at d's first word
 * boundary; backward, the k bytes below the ends e and s that start at e's
 * last word boundary.  The size-first build copies bytes.
 */
static inline void wm_head_fwd(unsigned char *d, const unsigned char *s, uintptr_t k)
{
	if (WM_SMALL_CODE) {
		while (k--) {
			*d++ = *s++;
			HOLD(s);
		}
	} else {
		wm_store_head(d, wm_load_first(s, k), k);
	}
}

static inline void wm_head_bwd(unsigned char *e, const unsigned char *s, uintptr_t k)
{
	if (WM_SMALL_CODE) {
		while (k--) {
			*--e = *--s;
			HOLD(s);
		}
	} else {
		wm_store_head_bwd(e, wm_load_last(s, k), k);
	}
}

/* ---- the word loops ----------------------------------------------------- */

/*
 * Why loading first is safe for memmove.  Forward copies run with dst < src
 * (or disjoint buffers): every store of a group lands below the source words
 * not yet loaded, which lie above the group's own.  Backward copies run with
 * dst > src: every store lands above the source words not yet loaded.
 * Loading a whole group before storing it only moves loads earlier, so it
 * never reads a word that the copy has already overwritten.
 *
 * The word counts are tested as bits of n (n & 4 * WSIZE is "four words
 * left"), which the core has early, not of a count computed from it.
 */

/*
 * Step 2, forward: whole words from the word-aligned sw to dw, up to dend;
 * returns where sw ends.  The odd words: one if their count is odd, then
 * pairs (a pair loaded before it is stored: one word at a time, clang
 * stored each word right after its load, which then waits for it); then
 * sixteen per iteration, in two groups of eight, each group all loaded
 * before any of it is stored.  Each pointer steps where nothing waits for
 * it: dw between the two groups (HOLD2 with sw, which the second group's
 * loads then need, keeps the step there), so that the second group's stores
 * and the loop's test find it done; sw after the second group's loads
 * (HOLD_GROUP_AND), long before the next iteration's.  At the end of the
 * body, the U74 would wait for each: 37 cycles per 16 words in its model
 * where this takes 34 (one a memory access, and one more where a group's
 * loads turn to its stores).
 */
#define LOAD_FWD(i) word w##i = sw[i];
/* Two statements of four: eight registers at once are more than x86-32 has. */
#define HOLD_GROUP HOLD4(w0, w1, w2, w3); HOLD4(w4, w5, w6, w7);
/* The same, holding p too: p's step comes before the group's stores. */
#define HOLD_GROUP_AND(p) HOLD4(w0, w1, w2, w3); \
	__asm__("" : "+r"(w4), "+r"(w5), "+r"(w6), "+r"(w7), "+r"(p));
#define STORE_FWD(i) dw[i] = w##i;
#define LOAD_FWD2(i) word w##i = sw[8 + (i)];
#define STORE_FWD2(i) dw[(i) - 8] = w##i;
static inline const word *wm_words_fwd(word *dw, const word *sw, word *dend)
{
	word *dblk = dw + (WORDS(dw, dend) & 15);

	if (WM_SMALL_CODE) {
		/* Bottom-tested: at -Os GCC keeps a while loop's test on top. */
		if (dw != dend)
			do {
				*dw++ = *sw++;
				HOLD(sw);
			} while (dw != dend);
		return sw;
	}
	if (((uintptr_t)dend - (uintptr_t)dw) & WSIZE)
		*dw++ = *sw++;
	while (dw != dblk) {
		word w0 = sw[0], w1 = sw[1];

		HOLD2(w0, w1);
		dw[0] = w0;
		dw[1] = w1;
		dw += 2;
		sw += 2;
		HOLD(sw);
	}
	while (dw != dend) {
		{ R8(LOAD_FWD) HOLD_GROUP R8(STORE_FWD) }
		dw += 16;
		HOLD2(dw, sw);
		{ R8(LOAD_FWD2) sw += 16; HOLD_GROUP_AND(sw) R8(STORE_FWD2) }
	}
	return sw;
}
#undef LOAD_FWD
#undef STORE_FWD
#undef LOAD_FWD2
#undef STORE_FWD2

/*
 * Step 2, backward: the same below the word-aligned ends, down to dstop.  Only
 * sw's step is held: holding dw's too made GCC copy dw between two
 * registers twice an iteration; left free, it steps dw before the first
 * group's stores, which costs one cycle (35 per 16 words).
 */
#define LOAD_BWD(i) word w##i = sw[-1 - (i)];
#define STORE_BWD(i) dw[-1 - (i)] = w##i;
#define LOAD_BWD2(i) word w##i = sw[-9 - (i)];
#define STORE_BWD2(i) dw[7 - (i)] = w##i;
static inline const word *wm_words_bwd(word *dw, const word *sw, word *dstop)
{
	word *dblk = dw - (WORDS(dstop, dw) & 15);

	if (WM_SMALL_CODE) {
		if (dw != dstop)
			do {
				*--dw = *--sw;
				HOLD(sw);
			} while (dw != dstop);
		return sw;
	}
	while (dw != dblk) {
		*--dw = *--sw;
		HOLD(sw);
	}
	/*
	 * Saying so keeps GCC from recomputing dw here.  The forward copy
	 * does without: there GCC needs no telling, and the statement made
	 * clang count the odd words in a register of its own and copy both
	 * pointers on every word.
	 */
	dw = dblk;
	while (dw != dstop) {
		{ R8(LOAD_BWD) HOLD_GROUP R8(STORE_BWD) }
		dw -= 16;
		{ R8(LOAD_BWD2) sw -= 16; HOLD_GROUP_AND(sw) R8(STORE_BWD2) }
	}
	return sw;
}
#undef LOAD_BWD
#undef STORE_BWD
#undef LOAD_BWD2
#undef STORE_BWD2
#undef HOLD_GROUP
#undef HOLD_GROUP_AND

/*
 * The merging loop's body, both ways: eight source words in, eight merged
 * destination words out (64 bytes on rv64).  `carry` is the last source
 * word of the block before, as loaded; KEEP shifts a word for the
 * destination word after it in the copy's direction and MOVE for its own
 * (forward, KEEP is DROP by ls and MOVE is PUSH by rs; backward, the other
 * way round).  The merged words are left in c and w0..w6, the next carry
 * in w7.  Each word's KEEP half takes the word's register and each or the
 * register of the half it finishes, so the body needs ten registers for
 * words: with the pointers, the bound and the shifts, GCC 12 saves one
 * register a call, as for the groups of four before it (clang 14 three,
 * where it saved four).
 *
 * The order is the U74's, and the source holds it with empty asm
 * statements (each holds what its step made and what the next step
 * reads, so neither GCC's nor clang's scheduler moves a step up or a load
 * down, nor copies a word between registers): the eight loads, each
 * beside one ALU op (the carry's shift, dw's step, the first words'
 * shifts and ors); then the other shifts and ors in independent pairs;
 * then the eight stores in one run.  In llvm-mca 19's U74 model a store
 * cannot issue in the cycle after a load or an ALU op, so one run of
 * stores pays that once a block; two groups of four, each loading,
 * shifting, oring and storing, paid it twice and waited on each group's
 * loads: 32 cycles per 64 bytes (clang's 33), where this takes 26 with
 * either compiler.  Both are 43 instructions, so the single-issue U54
 * takes 43 cycles either way.
 */
#define MERGE8(L, KEEP, kb, MOVE, mb, carry, sw, dw, step) \
	word c, t, w0, w1, w2, w3, w4, w5, w6, w7;                 \
	w0 = L(0); c = KEEP(carry, kb); HOLD3(w0, c, sw);          \
	w1 = L(1); dw += step; HOLD4(w1, sw, w0, dw);              \
	w2 = L(2); t = MOVE(w0, mb); HOLD4(w2, t, sw, w0);         \
	w3 = L(3); w0 = KEEP(w0, kb); HOLD4(w3, w0, sw, c);        \
	w4 = L(4); c |= t; HOLD3(w4, c, sw);                       \
	w5 = L(5); t = MOVE(w1, mb); HOLD4(w5, t, sw, w1);         \
	w6 = L(6); w1 = KEEP(w1, kb); HOLD3(w6, w1, sw);           \
	w7 = L(7); w0 |= t; HOLD4(w7, w0, sw, w2);                 \
	t = MOVE(w2, mb); w2 = KEEP(w2, kb); HOLD4(t, w2, w1, w3); \
	w1 |= t; t = MOVE(w3, mb); HOLD3(w1, t, w3);               \
	w3 = KEEP(w3, kb); w2 |= t; HOLD3(w3, w2, w4);             \
	t = MOVE(w4, mb); w4 = KEEP(w4, kb); HOLD2(t, w5);         \
	w3 |= t; t = MOVE(w5, mb); HOLD4(w3, t, w5, w4);           \
	w5 = KEEP(w5, kb); w4 |= t; HOLD3(w5, w4, w6);             \
	t = MOVE(w6, mb); w6 = KEEP(w6, kb); HOLD3(t, w6, w7);     \
	w5 |= t; t = MOVE(w7, mb); HOLD3(w5, t, sw);               \
	w6 |= t; sw += step; HOLD3(w6, sw, dw);

/*
 * Steps 3 and 4, forward: n >= 1 bytes from s, which is not word-aligned, to
 * the word-aligned d; returns dst.  The aligned source word sw[0] holds s's
 * first WSIZE - off bytes, and `lo` carries the last word loaded from one
 * destination word to the next, so every source word is loaded once and the
 * last one loaded still holds bytes of src.  Blocks of eight words while
 * the destination has eight left: the loop runs while dw is at most its
 * bound, the destination's end less 8 * WSIZE.  The bytes left after it
 * are bound - dw + 8 * WSIZE, whose low bits (all that the rest reads:
 * n & 6 * WSIZE, n & WSIZE, n & WMASK) are bound - dw's, so n needs no
 * register through the loop.
 * A function of its own, called in tail position, so that only this path
 * saves the register its loop needs.
 */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_merge_fwd(void *dst, const unsigned char *s, size_t n, unsigned char *d)
{
	uintptr_t off = (uintptr_t)s & WMASK;
	uintptr_t slim = (uintptr_t)s + n;	/* for EDGE: n changes below */
	const word *sw = (const word *)((uintptr_t)s - off);
	word *dw = (word *)d;
	word *dend;
	int ls = (int)off * 8;
	int rs = WBITS - ls;
	word lo = EDGE(sw, s, slim), hi;

	if (WM_SMALL_CODE) {
		/* One at a time, bottom-tested as in wm_words_fwd. */
		dend = END(word *, d, n & ~WMASK);
		if (dw != dend) {
			do {
				hi = EDGE(++sw, s, slim);
				*dw++ = MERGE(lo, hi, ls, rs);
				lo = hi;
				HOLD(sw);
			} while (dw != dend);
		}
	} else {
		if (n >= 8 * WSIZE) {
			uintptr_t bound = (uintptr_t)d + n - 8 * WSIZE;

			/* Else GCC keeps d + n as well, for n below: a save more. */
			HOLD(bound);
#define L(i) EDGE(sw + 1 + (i), s, slim)
			do {
				MERGE8(L, DROP, ls, PUSH, rs, lo, sw, dw, 8)
				dw[-8] = c; dw[-7] = w0; dw[-6] = w1; dw[-5] = w2;
				dw[-4] = w3; dw[-3] = w4; dw[-2] = w5; dw[-1] = w6;
				lo = w7;
			} while ((uintptr_t)dw <= bound);
#undef L
			n = bound - (uintptr_t)dw;
		}
		/*
		 * The last 0..7 words: pairs, then an odd one.  Both words
		 * of a pair are loaded before the first store (HOLD2), so that
		 * no store waits for the load just before it; the carried
		 * word's half (m0) is shifted first, which frees its register
		 * for the second load: no move per pair.
		 */
		dend = (word *)((unsigned char *)dw + (n & 6 * WSIZE));
		while (dw != dend) {
			word m0 = DROP(lo, ls);

			hi = EDGE(sw + 1, s, slim);
			lo = EDGE(sw + 2, s, slim);
			HOLD2(hi, lo);
			dw[0] = m0 | PUSH(hi, rs);
			dw[1] = MERGE(hi, lo, ls, rs);
			dw += 2;
			sw += 2;
			HOLD2(dw, sw);
		}
		if (n & WSIZE) {
			hi = EDGE(++sw, s, slim);
			*dw++ = MERGE(lo, hi, ls, rs);
			lo = hi;
		}
	}
	/* 4. The tail: its first bytes are those of lo from off on. */
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
/*
 * Steps 3 and 4, backward: the n >= 1 bytes below s, which is not
 * word-aligned, to those below the word-aligned e; returns dst.  The mirror
 * image of wm_merge_fwd: the aligned word at s - off holds src's last off
 * bytes, and `hi` carries the last word loaded, going down.
 */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_merge_bwd(void *dst, const unsigned char *s, size_t n, unsigned char *e)
{
	uintptr_t off = (uintptr_t)s & WMASK;
	uintptr_t slo = (uintptr_t)s - n;	/* for EDGE: n changes below */
	const word *sw = (const word *)((uintptr_t)s - off);
	word *dw = (word *)e;
	word *dstop;
	int ls = (int)off * 8;
	int rs = WBITS - ls;
	word hi = EDGE(sw, slo, s), lo;

	if (WM_SMALL_CODE) {
		dstop = START(word *, e, n & ~WMASK);
		if (dw != dstop) {
			do {
				lo = EDGE(--sw, slo, s);
				*--dw = MERGE(lo, hi, ls, rs);
				hi = lo;
				HOLD(dw);	/* held on sw, GCC -Os recomputes dw after the loop */
			} while (dw != dstop);
		}
	} else {
		if (n >= 8 * WSIZE) {
			uintptr_t bound = (uintptr_t)e - n + 8 * WSIZE;

			HOLD(bound);
#define L(i) EDGE(sw - 1 - (i), slo, s)
			do {
				MERGE8(L, PUSH, rs, DROP, ls, hi, sw, dw, -8)
				dw[7] = c; dw[6] = w0; dw[5] = w1; dw[4] = w2;
				dw[3] = w3; dw[2] = w4; dw[1] = w5; dw[0] = w6;
				hi = w7;
			} while ((uintptr_t)dw >= bound);
#undef L
			n = (uintptr_t)dw - bound;
		}
		/* The last 0..7 words: pairs, then an odd one, as forward. */
		dstop = (word *)((unsigned char *)dw - (n & 6 * WSIZE));
		while (dw != dstop) {
			word m0 = PUSH(hi, rs);

			lo = EDGE(sw - 1, slo, s);
			hi = EDGE(sw - 2, slo, s);
			HOLD2(lo, hi);
			dw[-1] = DROP(lo, ls) | m0;
			dw[-2] = MERGE(hi, lo, ls, rs);
			dw -= 2;
			sw -= 2;
			HOLD2(dw, sw);
		}
		if (n & WSIZE) {
			lo = EDGE(--sw, slo, s);
			*--dw = MERGE(lo, hi, ls, rs);
			hi = lo;
		}
	}
	/* 4. The tail: its last bytes are those of hi below off. */
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
#undef MERGE8

/* ---- the four steps ----------------------------------------------------- */

/*
 * Forward copy of n >= WSIZE bytes, lowest address first: memcpy, and
 * memmove when dst < src or the buffers are disjoint.  Deliberately not
 * restrict-qualified: memmove relies on it for overlapping buffers.
 *
 * noinline, and called in tail position: left to itself GCC splits memcpy
 * and keeps dst in a saved register across the call, which costs every call.
 */
WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_copy_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uintptr_t head = -(uintptr_t)d & WMASK;
	uintptr_t soff = (uintptr_t)s & WMASK;
	const word *sw;
	word *dend;

	/*
	 * 1. Up to the first word boundary of dst.  The speed-first build
	 * tests dst's offset in its word, not the head's length computed
	 * from it (one ALU result before the branch, not two): an aligned
	 * dst reaches the source's test 3 U74 cycles sooner.
	 */
	if (WM_SMALL_CODE ? head != 0 : ((uintptr_t)d & WMASK) != 0) {
		wm_head_fwd(d, s, head);
		d += head;
		s += head;
		n -= head;
		soff = (uintptr_t)s & WMASK;
	}
	/*
	 * 3. and 4. when src is not word-aligned now.  Its offset in its
	 * word is taken on entry, beside dst's: when dst is aligned, this
	 * test then finds it ready (2 U74 cycles sooner), and the head
	 * reads the same offset for its first load.
	 */
	if (soff)
		return wm_merge_fwd(dst, s, n, d);
	/*
	 * 2. Co-aligned: whole words.  The tail's length is taken out of n
	 * before the loop (HOLD): after it, its test would wait for it.
	 */
	dend = END(word *, d, n & ~WMASK);
	n &= WMASK;
	HOLD(n);
	sw = wm_words_fwd((word *)d, (const word *)s, dend);
	/* 4. The tail, from one aligned source word. */
	if (!n)
		return dst;
	return wm_tail_fwd(dst, (unsigned char *)dend, n,
			   WM_SMALL_CODE ? 0 : EDGE(sw, sw, (uintptr_t)sw + n),
			   (const unsigned char *)sw);
}

/*
 * Backward copy of n >= WSIZE bytes, highest address first: the mirror image
 * of wm_copy_fwd, for memmove when dst > src and the buffers overlap.
 */
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
	/* src's offset taken on entry, as in wm_copy_fwd. */
	if (soff)
		return wm_merge_bwd(dst, s, n, d);
	dstop = START(word *, d, n & ~WMASK);
	sw = wm_words_bwd((word *)d, (const word *)s, dstop);
	if (!(n & WMASK))
		return dst;
	return wm_tail_bwd(dst, (unsigned char *)dstop, n & WMASK, (const unsigned char *)sw,
			   WM_SMALL_CODE ? 0 : EDGE(sw - 1, src, sw));
}

/*
 * Small copies: n <= WM_SMALL_MAX, two words (one word less one byte in the
 * size-first build, which copies those by bytes).  Aligning and merging
 * costs more than it saves here.  Co-aligned, whole words and one word's
 * first bytes, all loaded before the first store: safe for memmove either
 * way.  Otherwise bytes: forward four per group, each group loaded before
 * it is stored (as in the word loops, safe for memmove with dst < src);
 * backward one at a time (groups cost more there, in the model).  Not
 * inlined: memcpy and memmove share them
 * through tail calls.
 */
#define WM_SMALL_MAX (WM_SMALL_CODE ? WSIZE - 1 : 2 * WSIZE)
#define WM_SMALL_WORDS(d, s) \
	(!WM_SMALL_CODE && !(((uintptr_t)(d) | (uintptr_t)(s)) & WMASK))

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

WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_bytes_fwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	unsigned char b0, b1, b2, b3;

	if (!WM_SMALL_CODE) {
		unsigned char *end4 = d + (n & ~(size_t)3);

		for (; d != end4; d += 4, s += 4) {
			b0 = s[0];
			b1 = s[1];
			b2 = s[2];
			b3 = s[3];
			HOLD4(b0, b1, b2, b3);
			d[0] = b0;
			d[1] = b1;
			d[2] = b2;
			d[3] = b3;
			HOLD(s);
		}
		n &= 3;
	}
	while (n--) {
		*d++ = *s++;
		HOLD(s);
	}
	HOLD(dst);
	return dst;
}

WM_NO_LIBCALLS static __attribute__((__noinline__))
void *wm_bytes_bwd(void *dst, const void *src, size_t n)
{
	unsigned char *d = END(unsigned char *, dst, n);
	const unsigned char *s = END(const unsigned char *, src, n);

	while (n--) {
		*--d = *--s;
		HOLD(s);
	}
	HOLD(dst);
	return dst;
}

/*
 * n - 1 <= WM_SMALL_MAX - 1 is 1 <= n <= WM_SMALL_MAX: n == 0 wraps round
 * and is then the first thing the other side tests, so that it costs few
 * instructions (real programs make many such calls: in Google's fleet
 * profiles almost one memcpy in ten) without one more test for all others.
 * The size-first build lets its byte loop take n == 0.
 */
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

/*
 * Forward whenever dst does not lie inside (src, src + n): the unsigned
 * difference covers both dst < src and disjoint buffers in one compare.
 */
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

WM_NO_LIBCALLS void *wm_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	/*
	 * The end, first: the byte stores from the end need it, and the U74
	 * then has it ready for them; the word path rounds it down.
	 */
	unsigned char *e = END(unsigned char *, d, n);
	unsigned char b = (unsigned char)c;
	word v = b;	/* held in the byte loops, as a word: no extension */
	/*
	 * WSIZE held in a register: the byte stores' last test compares n
	 * with it again, and GCC otherwise loads the constant anew there.
	 */
	uintptr_t wsize = WSIZE;

	HOLD(wsize);

	/*
	 * Bytes up to one word, and up to two words if dst is not aligned
	 * (the size-first build: below one word).  The length first, so
	 * that the shortest calls take two decisions before their stores
	 * (n <= WSIZE, n == 0), whatever dst's alignment; n == 0 is tested
	 * on this side only, so that longer calls do not pay for it.
	 */
	if (!WM_SMALL_CODE && n <= wsize) {
		/*
		 * 1 to 2 * WSIZE bytes (to WSIZE if dst is aligned), from
		 * both ends at once: 2, 4, 8 or 16 bytes, the first and the
		 * last half of them.  The ends overlap when n is not a power
		 * of two, which stores a byte twice rather than test for it.
		 * No loop, no count, no word to build: a 1-byte call is two
		 * stores.  The longest first: 5 to 8 bytes (8 is the
		 * commonest length, 16 % of the calls in Google's fleet
		 * profile) take one test of the length before their stores,
		 * where a ladder from the shortest took three; 1 and 2 bytes
		 * take two, one more.
		 * HOLD(n): GCC otherwise made a copy of this for each way in.
		 */
		if (!n)
			return dst;
bytes:
		HOLD(n);
/* The first four bytes at d + k, then the four below e - k. */
#define SET_FIRST(i, k) d[(k) + (i)] = b;
#define SET_LAST(i, k) e[(i) - 4 - (k)] = b;
#define SET_ENDS(k) \
	SET_FIRST(0, k) SET_FIRST(1, k) SET_FIRST(2, k) SET_FIRST(3, k) \
	SET_LAST(0, k) SET_LAST(1, k) SET_LAST(2, k) SET_LAST(3, k)
		if (n > 4) {
			SET_ENDS(0)
			if (WSIZE == 4 || n <= wsize)
				return dst;
			SET_ENDS(4)
			return dst;
		}
#undef SET_FIRST
#undef SET_LAST
#undef SET_ENDS
		d[0] = b;
		e[-1] = b;
		if (n > 2) {
			d[1] = b;
			e[-2] = b;
		}
		return dst;
	}
	if (!WM_SMALL_CODE || n >= WSIZE) {
		/* ~0 / 0xff is 0x0101...01: one copy of b in every byte. */
		word ones = ~(word)0 / 0xff, w;
		uintptr_t head = -(uintptr_t)d & WMASK;
		/* dst's first word boundary: dst itself if it is aligned. */
		word *dw = (word *)(((uintptr_t)d + WMASK) & ~WMASK);
		word *dend;

		/*
		 * The spread b * ones in two steps, each held where it goes:
		 * the constant here (a load from memory on rv64), the
		 * multiply (SPREAD below) in each way to the word stores,
		 * after dst's head and the length's tests.  The U74 issues
		 * in order: the multiply next to the load waited for it and
		 * held up all behind it (2 to 3 cycles a call in its model).
		 * HOLD(ones) in SPREAD too: GCC otherwise hoisted the
		 * multiply above the test of the length again.  The load
		 * still waits 3 U74 cycles for its address: GCC 12 writes it
		 * as one `ld` of a symbol, which the assembler makes `auipc`
		 * and `ld`, so nothing comes between them wherever it goes
		 * (moved below dst's head, it cost the mix a cycle a call).
		 */
		HOLD(ones);
		/*
		 * 1. Up to the first word boundary.  The speed-first build
		 * compares dst with that boundary, which the words need
		 * anyway: an aligned dst then pays one branch for it.
		 */
		if (WM_SMALL_CODE) {
			n -= head;
			while (head--) {
				*d++ = (unsigned char)v;
				HOLD(v);
			}
			dw = (word *)d;
		} else if ((unsigned char *)dw != d) {
			if (n <= 2 * WSIZE)
				goto bytes;	/* they do not pay the head */
			/*
			 * The first WSIZE - 1 bytes, whatever the head's
			 * length: the boundary lies among them or right
			 * after, and those past it the first word stores
			 * again.  No test of the length, and all of them
			 * inside, since n > 2 * WSIZE.
			 */
			d[0] = b;
			d[1] = b;
			d[2] = b;
			if (WSIZE == 8) {
				d[3] = b;
				d[4] = b;
				d[5] = b;
				d[6] = b;
			}
			n = (uintptr_t)e - (uintptr_t)dw;
		}
		/*
		 * 2. Whole words.  Up to eight, from both ends at once, the
		 * ends overlapping (storing the same value twice costs less
		 * than a test for it): the first and the last word, then the
		 * second and the last but one, then four more from each end.
		 * Above eight: those above the last multiple of 32 (the odd
		 * words) eight per iteration, the rest 32 per iteration (one
		 * copy of the big block in the code, not a second one for
		 * the odd words).  When the odd words' count is not a
		 * multiple of eight, a block of eight goes at dw (there are
		 * at least nine words) and the next starts just far enough
		 * on for the blocks to end where the big blocks begin.
		 */
		if (WM_SMALL_CODE) {
			dend = END(word *, d, n & ~WMASK);
		} else {
			/*
			 * dst's end rounded down, whatever the head took: one
			 * ALU result from the end computed on entry.  HOLD:
			 * GCC otherwise copied it to another register for
			 * the big blocks' loop.
			 */
			dend = (word *)((uintptr_t)e & ~WMASK);
			HOLD(dend);
		}
#define SPREAD() HOLD(ones); w = (word)b * ones; HOLD(w);
/*
 * 4. The tail (written here, used by both ways to the words below).  The
 * speed-first build stores the last WSIZE - 1 bytes whenever dst's end is
 * not aligned, some of them again, rather than test which of them: at
 * least one whole word lies below them.  HOLD(e): clang otherwise merged
 * these stores with the byte path's last ones, into one block that
 * computed each address.
 */
#define SET_TAIL() \
	if ((unsigned char *)dend != e) { \
		e[-1] = b; \
		e[-2] = b; \
		e[-3] = b; \
		if (WSIZE == 8) { \
			e[-4] = b; \
			e[-5] = b; \
			e[-6] = b; \
			e[-7] = b; \
		} \
		HOLD(e); \
	}
		if (!WM_SMALL_CODE && n > 8 * WSIZE) {
			word *dbig = (word *)((unsigned char *)dw + (n & 31 * WSIZE));

			SPREAD()

			/*
			 * One test of the odd words' count first: the calls
			 * of whole big blocks (4 KiB) go straight to them, a
			 * loop without a test before it (there is at least
			 * one block), after four decisions where they took
			 * six.  The others then take one block of eight for
			 * the words above a multiple of eight, one test where
			 * two blocks of four took two or three.
			 */
#define SET_WORD(i) dw[i] = w;
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
#undef SET_WORD
			/*
			 * The big blocks step dbig, where the odd words end:
			 * both ways in find the start in one register (with
			 * dw, GCC copied it there), and the test above, on
			 * dw, stays apart from the loop's own (on one
			 * pointer, GCC made them one block, which the loop
			 * jumped back to every iteration).
			 */
#define SET_PAIR(i) dbig[i] = w; dbig[(i) + 16] = w;
big:
			do {
				R16(SET_PAIR)
				dbig += 32;
			} while (dbig != dend);
#undef SET_PAIR
		} else if (!WM_SMALL_CODE) {
			/*
			 * The length tested before the first store, which
			 * then finds the multiply done (the U54 waited for
			 * it).  Nested tests, whose ways join before the
			 * last two stores, and a tail of its own: GCC then
			 * lays the tail out right after them, where a tail
			 * shared with the big blocks cost every call of 9 to
			 * 39 bytes a jump to it.  Five to eight words here,
			 * not among the odd words below: their tests and
			 * blocks cost 40 to 64 bytes more than the third test
			 * costs 24 to 39.
			 */
			SPREAD()
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
			SET_TAIL()
			return dst;
		} else if (dw != dend) {
			SPREAD()
			do
				*dw++ = w;
			while (dw != dend);
		}
#undef SPREAD
		/* 4. The tail: SET_TAIL above; the size-first build's below. */
tail:
		if (!WM_SMALL_CODE) {
			SET_TAIL()
			return dst;
		}
#undef SET_TAIL
		d = (unsigned char *)dend;
		n &= WMASK;
	}
	while (n--) {
		*d++ = (unsigned char)v;
		HOLD(v);
	}
	return dst;
}

/*
 * The names: lib always exports wm_memcpy, wm_memmove and wm_memset, which
 * clash with nobody's.  WORDMERGE_STD_NAMES (wordmerge.h) gives the same
 * functions more names, as aliases: one copy of the code at one address, so
 * a call by either name is the same call.
 */
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
