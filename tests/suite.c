// SPDX-License-Identifier: MIT
/*
 * The correctness suite (see suite.h).  Every case runs on a window of a
 * buffer: the bytes the call may write plus two words of poison guard on each
 * side.  The window is re-filled from a pristine pattern before each call, a
 * byte-by-byte model of the call writes the expected window, and the two must
 * match byte for byte, guards included.  The source must be unchanged and the
 * return value must be dst.
 *
 * Where the platform gives it a region between two inaccessible pages
 * (suite_set_guard(): mmap'd PROT_NONE pages on a hosted target, unmapped
 * pages of the image's Sv39 map), each group also runs its calls with the
 * source ending or starting right at an inaccessible page, or the
 * destination starting right after or ending right at one: a read or write
 * past the buffer faults, in any build, without a sanitizer.  The case
 * running is kept in suite_now, so that the platform's fault report can name
 * it (suite_current()).
 *
 * How much runs: SUITE_FULL (default on Linux hosts) runs every length
 * 0..1024 at every offset pair (memset's every offset) and every overlap
 * distance at every source offset; otherwise (the RISC-V image, qemu-user and
 * rv32 runs) lengths 257..1024 go in steps of 2W + 1 (every residue mod 2W)
 * and the far overlap distances at one source offset each.
 *
 * Compile with -fno-builtin -fno-tree-loop-distribute-patterns: the model's
 * byte loops must stay byte loops, not calls to the functions under test.
 */
#include <stdint.h>
#include <stdio.h>

#include "../firmware/protocol.h"
#include "suite.h"

#define W ((size_t)sizeof(unsigned long))
#define GUARD (2 * W)         /* poison bytes checked on each side */
#define MAX_OFF (2 * W)       /* offsets 0 .. 2W-1 */
#define SMALL_MAX 256         /* every length 0..SMALL_MAX, and overlaps */
#define MID_MAX 1024          /* lengths SMALL_MAX+1..MID_MAX, all or sampled */
#define FAR_LEN_MAX (16 * 1024) /* far overlaps: 4 KiB and 16 KiB moves */
#define FAR_DIST_MAX 129

#ifndef SUITE_FULL
#if defined(__linux__)
#define SUITE_FULL 1
#else
#define SUITE_FULL 0
#endif
#endif
/* Step through SMALL_MAX+1..MID_MAX: 1, or 2W + 1 (every residue mod 2W). */
#define MID_STEP (SUITE_FULL ? 1 : 2 * W + 1)
#define BIG_MAX ((size_t)1024 * 1024 + 5)
#define SPAN (BIG_MAX + 2 * MAX_OFF + 2 * GUARD + 256)
#define DETAIL_MAX 5          /* FAIL lines printed per group and impl */

/*
 * The two buffers the functions under test are given.  The RISC-V image puts them in a section
 * of its own (SUITE_CALLED_SECTION), which a user's functions, run in U-mode, may reach; the models
 * beside them stay out of those functions' reach.
 */
#ifdef SUITE_CALLED_SECTION
#define SUITE_CALLED __attribute__((section(SUITE_CALLED_SECTION)))
#else
#define SUITE_CALLED
#endif
/*
 * Each on a page boundary, an odd number of pages long: two laid side by side are then an odd
 * number of pages apart, and the same offset in both never shares an entry of QEMU's
 * direct-mapped TLB.  At 64 bytes' alignment they lay 256 pages apart, and a user's byte loop
 * (in U-mode, with a TLB of its own) made each access evict the other buffer's page: the suite
 * ran at half speed.  No count the image measures changes.
 */
#define SUITE_ALIGN 4096
_Static_assert((SPAN + SUITE_ALIGN - 1) / SUITE_ALIGN % 2 == 1, "SPAN: an odd number of pages");
static SUITE_CALLED _Alignas(SUITE_ALIGN) unsigned char suite_src[SPAN];  /* source pattern */
static _Alignas(SUITE_ALIGN) unsigned char suite_dpre[SPAN]; /* pristine dst pattern */
static SUITE_CALLED _Alignas(SUITE_ALIGN) unsigned char suite_dst[SPAN];  /* what the call wrote */
static _Alignas(SUITE_ALIGN) unsigned char suite_spre[SPAN]; /* pristine source */
/* The overlap cases' buffer: room below for the most negative distance and the guard. */
#define OVERLAP_BASE (GUARD + FAR_LEN_MAX + 256)
/* Rows of suite_spre and suite_dpre shifted by 0..W-1 bytes: shifted() says what for. */
#define SROW (GUARD + MAX_OFF + W + MID_MAX)
#define DROW (W + W + FAR_LEN_MAX)
static _Alignas(64) unsigned char suite_srows[W][SROW];
static _Alignas(64) unsigned char suite_drows[W][DROW];

/* Per group and implementation: cases run, cases failed. */
static unsigned long suite_cases, suite_fails;

/*
 * Ours is impls[0], and any with `own` set (a user's code in the image); the
 * others are references (another project's code), whose failures are
 * printed as theirs, REF-FAILED: rather than FAIL:, and leave the verdict to
 * ours.
 */
static const struct suite_impl *suite_ours;

static int is_own(const struct suite_impl *impl)
{
	return impl == suite_ours || impl->own;
}

static const char *fail_tag(const struct suite_impl *impl)
{
	return is_own(impl) ? TAG_FAIL : TAG_REF_FAILED;
}

/*
 * The case running now, for failure lines and the platform's fault report:
 * fn[impl], then fmt with a, b and len (a printf format of two longs and an
 * unsigned long).  fn is NULL between cases.
 */
static struct {
	const char *fn, *impl, *fmt;
	long a, b;
	unsigned long len;
} suite_now;

static void now_set(const char *fn, const struct suite_impl *impl,
		    const char *fmt, long a, long b, size_t len)
{
	suite_now.fn = fn;
	suite_now.impl = impl->name;
	suite_now.fmt = fmt;
	suite_now.a = a;
	suite_now.b = b;
	suite_now.len = (unsigned long)len;
}

static void now_desc(char *buf, size_t size)
{
	snprintf(buf, size, suite_now.fmt, suite_now.a, suite_now.b, suite_now.len);
}

int suite_current(char *buf, size_t size)
{
	int k;

	if (!suite_now.fn || !size)
		return 0;
	k = snprintf(buf, size, "%s[%s] ", suite_now.fn, suite_now.impl);
	if (k >= 0 && (size_t)k < size)
		now_desc(buf + k, size - (size_t)k);
	return 1;
}

/* The guard region: [guard_lo, guard_hi) accessible, the pages around not. */
static unsigned char *guard_lo, *guard_hi;

void suite_set_guard(void *lo, void *hi)
{
	guard_lo = lo;
	guard_hi = hi;
}

/*
 * A byte of a buffer's pristine pattern: hashed, so that a copy from a wrong offset differs,
 * but the 8-byte blocks (aligned, as the buffers are) `at` mod `every` all zero, so that a
 * copy that skips storing zero words ("dst is fresh memory") meets some.  The source's and
 * the guard region's: blocks 5, 18, 31, ... (13 is no power of two: they lie at every
 * alignment to 16, 32, 64 bytes in turn).  The destination's: blocks 15, 52, ..., 2087 (the
 * overlap cases' source, 40 bytes on), at least three blocks from the source's in the first
 * KiB (no copy from there puts a zero onto a pristine zero, where a byte left unwritten would
 * pass), and 296 bytes apart (no overlap case to 256 bytes moves one onto another).
 */
static unsigned char pattern(size_t i, uint32_t seed, size_t every, size_t at)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed;

	if (i / 8 % every == at)
		return 0;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	return (unsigned char)(x ^ (x >> 12) ^ (x >> 24));
}

static void bytes_copy(unsigned char *d, const unsigned char *s, size_t n)
{
	while (n--)
		*d++ = *s++;
}

/*
 * Index of the first difference in [0, n), or n.  a and b may differ in
 * alignment, so no word loads: eight bytes a step, one branch for them.
 */
static size_t bytes_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		if ((a[i] ^ b[i]) | (a[i + 1] ^ b[i + 1]) | (a[i + 2] ^ b[i + 2]) |
		    (a[i + 3] ^ b[i + 3]) | (a[i + 4] ^ b[i + 4]) | (a[i + 5] ^ b[i + 5]) |
		    (a[i + 6] ^ b[i + 6]) | (a[i + 7] ^ b[i + 7]))
			break;
	for (; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * One failed case: count it always, print it while few.  `desc` names the
 * case; at/expected/got locate the first wrong byte relative to dst
 * (expected < 0: the return value was wrong).
 */
static void case_fail(const char *fn, const struct suite_impl *impl,
		      long at, int expected, int got)
{
	char desc[96];

	if (++suite_fails > DETAIL_MAX)
		return;
	now_desc(desc, sizeof(desc));
	if (expected < 0)
		proto_line(fail_tag(impl), "%s[%s] %s: returned a pointer other than dst\n",
		       fn, impl->name, desc);
	else
		proto_line(fail_tag(impl), "%s[%s] %s: byte at dst%+ld expected 0x%02x got 0x%02x\n",
		       fn, impl->name, desc, at, expected, got);
}

/*
 * The checks compare and restore only what a call can have touched: before
 * every call suite_dst equals suite_dpre and suite_src equals suite_spre.
 * window_diff() gives the first byte of suite_dst[lo, hi) that differs from
 * the model of a call that wrote [d, d + len): want's bytes there (c's when
 * want is NULL), the pristine pattern elsewhere; hi if none.  The runs that
 * must equal the pattern are compared a word at a time (same offset within a
 * word on both sides).
 */
typedef unsigned long __attribute__((may_alias)) suite_word;

static size_t same_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i = 0;

	for (; i < n && ((uintptr_t)(a + i) & (W - 1)); i++)
		if (a[i] != b[i])
			return i;
	for (; i + W <= n; i += W)
		if (*(const suite_word *)(a + i) != *(const suite_word *)(b + i))
			break;
	for (; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/* Index of the first byte of a[0, n) other than c, or n: a word at a time once aligned. */
static size_t set_diff(const unsigned char *a, int c, size_t n)
{
	suite_word cw = (suite_word)-1 / 255 * (unsigned char)c;
	size_t i = 0;

	for (; i < n && ((uintptr_t)(a + i) & (W - 1)); i++)
		if (a[i] != (unsigned char)c)
			return i;
	for (; i + W <= n; i += W)
		if (*(const suite_word *)(a + i) != cw)
			break;
	for (; i < n && a[i] == (unsigned char)c; i++)
		;
	return i;
}

static void same_copy(unsigned char *d, const unsigned char *s, size_t n)
{
	for (; n && ((uintptr_t)d & (W - 1)); n--)
		*d++ = *s++;
	for (; n >= W; n -= W, d += W, s += W)
		*(suite_word *)d = *(const suite_word *)s;
	bytes_copy(d, s, n);
}

/*
 * A copy's model, pre[i, i + len), sits at another offset within a word than
 * dst = suite_dst + d, so that the two compare a byte at a time, which made
 * these compares most of the suite's time.  rows (W rows of `row` bytes: row
 * r holds pre[lo, lo + row - r) from its byte r on) hold the same bytes at
 * every offset: shifted() gives them at dst's, where they compare a word at
 * a time; or pre + i itself when the rows do not reach that far.
 */
static void shift_rows(unsigned char *rows, size_t row, const unsigned char *pre, size_t lo)
{
	size_t r, x;

	for (r = 0; r < W; r++)
		for (x = r; x < row; x++)
			rows[r * row + x] = pre[lo + x - r];
}

static const unsigned char *shifted(const unsigned char *pre, unsigned char *rows, size_t row,
				    size_t lo, size_t i, size_t len, size_t d)
{
	size_t r = (d - i) % W;

	if (i < lo || i - lo + r + len > row)
		return pre + i;
	return rows + r * row + (i - lo) + r;
}

static size_t window_diff(size_t lo, size_t d, size_t len,
			  const unsigned char *want, int c, size_t hi)
{
	size_t at = lo + same_diff(suite_dst + lo, suite_dpre + lo, d - lo);

	if (at < d)
		return at;
	if (!want)
		at = set_diff(suite_dst + d, c, len);
	else if (((uintptr_t)want ^ (uintptr_t)(suite_dst + d)) & (W - 1))
		at = bytes_diff(suite_dst + d, want, len);
	else
		at = same_diff(suite_dst + d, want, len);
	if (at < len)
		return d + at;
	return d + len + same_diff(suite_dst + d + len, suite_dpre + d + len, hi - d - len);
}

/*
 * After a call: a wrong return value or byte is reported (and the window
 * [lo, hi) restored); a right one restores [d, d + len) only.
 */
static int window_verdict(const char *fn, const struct suite_impl *impl, int ret_ok,
			  size_t lo, size_t d, size_t len, const unsigned char *want,
			  int c, size_t hi)
{
	size_t at = window_diff(lo, d, len, want, c, hi);

	if (ret_ok && at == hi) {
		same_copy(suite_dst + d, suite_dpre + d, len);
		return 1;
	}
	if (!ret_ok)
		case_fail(fn, impl, 0, -1, 0);
	else
		case_fail(fn, impl, (long)at - (long)d,
			  at >= d && at < d + len ? (want ? want[at - d] : (unsigned char)c)
						  : suite_dpre[at],
			  suite_dst[at]);
	same_copy(suite_dst + lo, suite_dpre + lo, hi - lo);
	return 0;
}

/*
 * Run one copy case: dst = suite_dst + GUARD + doff, src = suite_src + GUARD
 * + soff, disjoint buffers.  Checks window, guards, source and return value.
 */
static void copy_case(const char *fn, const struct suite_impl *impl,
		      void *(*f)(void *, const void *, size_t),
		      size_t doff, size_t soff, size_t len)
{
	size_t d = GUARD + doff, swin = GUARD + soff + len + GUARD;
	const unsigned char *src = suite_src + GUARD + soff;
	size_t at;
	void *ret;

	suite_cases++;
	now_set(fn, impl, "dst_off=%ld src_off=%ld len=%lu", (long)doff, (long)soff, len);
	ret = f(suite_dst + d, src, len);
	if (!window_verdict(fn, impl, ret == suite_dst + d, 0, d, len,
			    shifted(suite_spre, suite_srows[0], SROW, 0, GUARD + soff, len, d), -1,
			    d + len + GUARD))
		return;
	/* Nothing may have written to the source. */
	at = same_diff(suite_src, suite_spre, swin);
	if (at < swin) {
		char desc[96];

		now_desc(desc, sizeof(desc));
		proto_line(fail_tag(impl), "%s[%s] %s: source byte src%+ld changed\n",
		       fn, impl->name, desc, (long)at - (long)(GUARD + soff));
		suite_fails++;
		same_copy(suite_src, suite_spre, swin);
	}
}

/*
 * memmove within one buffer: src = OVERLAP_BASE + soff, dst = src + dist.  The model
 * is memmove's "as if through a temporary": dst gets the source's bytes as
 * they were before the call.
 */
static void overlap_case(const struct suite_impl *impl, size_t soff, long dist,
			 size_t len)
{
	size_t s = OVERLAP_BASE + soff;
	size_t d = (size_t)((long)s + dist);
	size_t lo = (s < d ? s : d) - GUARD;
	size_t hi = (s > d ? s : d) + len + GUARD;
	void *ret;

	suite_cases++;
	now_set("memmove-overlap", impl, "src_off=%ld dist=%ld len=%lu", (long)soff, dist, len);
	ret = impl->move(suite_dst + d, suite_dst + s, len);
	window_verdict("memmove-overlap", impl, ret == suite_dst + d, lo, d, len,
		       shifted(suite_dpre, suite_drows[0], DROW, OVERLAP_BASE, s, len, d), -1, hi);
}

static void set_case(const struct suite_impl *impl, size_t doff, int c, size_t len)
{
	size_t d = GUARD + doff;
	void *ret;

	suite_cases++;
	now_set("memset", impl, "dst_off=%ld c=%ld len=%lu", (long)doff, c, len);
	ret = impl->set(suite_dst + d, c, len);
	window_verdict("memset", impl, ret == suite_dst + d, 0, d, len, NULL, c,
		       d + len + GUARD);
}

/* ---- guard pages ---------------------------------------------------------- */

/* The guard region's pristine byte at offset i. */
static unsigned char gpat(size_t i) { return pattern(i, 0x5bd1e995u, 13, 5); }

/*
 * One call in the guard region: dst at offset d, src at offset s (c < 0:
 * a copy with f; else memset with c).  The windows around the call's bytes
 * (dst's, and a copy's src's: one window when they are near) must hold what
 * the model says (the source's bytes as they were before the call, over
 * dst), then they are restored.  As in the other cases, only those windows
 * are compared: the whole stretch between a src at one guard page and a dst
 * at the other, compared for every case, made these cases most of the
 * suite's time.  fmt, a and b name the case.
 */
static void guard_case(const char *fn, const struct suite_impl *impl,
		       void *(*f)(void *, const void *, size_t), size_t d,
		       size_t s, int c, size_t len, const char *fmt, long a, long b)
{
	size_t size = (size_t)(guard_hi - guard_lo);
	size_t win[2][2] = { { d, d + len }, { s, s + len } };
	int nwin = c >= 0 ? 1 : 2, k;
	size_t i, at = size;
	void *ret;

	if (nwin == 2 && s < d + len + 2 * GUARD && d < s + len + 2 * GUARD) {
		win[0][0] = d < s ? d : s;
		win[0][1] = (d > s ? d : s) + len;
		nwin = 1;
	}
	suite_cases++;
	now_set(fn, impl, fmt, a, b, len);
	if (c >= 0)
		ret = impl->set(guard_lo + d, c, len);
	else
		ret = f(guard_lo + d, guard_lo + s, len);
	for (k = 0; k < nwin; k++) {
		size_t lo = win[k][0] > GUARD ? win[k][0] - GUARD : 0;
		size_t hi = win[k][1] + GUARD < size ? win[k][1] + GUARD : size;

		for (i = lo; i < hi; i++) {
			int in = i >= d && i < d + len;
			unsigned char want = !in ? gpat(i) : c >= 0 ? (unsigned char)c : gpat(s + i - d);

			if (guard_lo[i] != want) {
				if (at == size)
					case_fail(fn, impl, (long)i - (long)d, want, guard_lo[i]);
				at = i;
			}
			/* Outside dst a right byte is the pattern already. */
			if (in || guard_lo[i] != want)
				guard_lo[i] = in ? gpat(i) : want;
		}
	}
	if (ret != guard_lo + d && at == size)
		case_fail(fn, impl, 0, -1, 0);
}

/* Lengths at the guard pages: 0..2W, then these. */
static const size_t suite_guard_len[] = {
	3 * W - 1, 4 * W + 3, 8 * W + 5, 16 * W + 7, 257, 1024 + 7, 3 * 1024 + 1,
};
#define NGUARD (2 * W + 1 + sizeof(suite_guard_len) / sizeof(suite_guard_len[0]))
static size_t guard_len(size_t k)
{
	return k <= 2 * W ? k : suite_guard_len[k - 2 * W - 1];
}

/*
 * Copies against the guard pages: the source ends gap bytes below the upper
 * guard page (gap 0..W-1: then no aligned word wholly above the source is
 * readable) with dst dist bytes above the lower one, and the mirror image:
 * the source starts gap bytes above the lower guard page, dst ends dist
 * bytes below the upper one.  overlap: dst = src -/+ dist (dist 1..2W+1)
 * instead, a forward move at the upper page, a backward one at the lower.
 */
static void guard_copies(const char *fn, const struct suite_impl *impl,
			 void *(*f)(void *, const void *, size_t), int overlap)
{
	size_t size = (size_t)(guard_hi - guard_lo);
	size_t k, gap, dist, len;

	if (!guard_lo)
		return;
	for (k = 0; k < NGUARD; k++)
		for (len = guard_len(k), gap = 0; gap < W; gap++)
			for (dist = (size_t)overlap; dist < (overlap ? 2 * W + 2 : 2 * W); dist++) {
				size_t s = size - gap - len;

				if (overlap) {
					guard_case(fn, impl, f, s - dist, s, -1, len,
						   "guard: src ends at page-%ld, dst = src-%ld, len=%lu",
						   (long)gap, (long)dist);
					guard_case(fn, impl, f, gap + dist, gap, -1, len,
						   "guard: src starts at page+%ld, dst = src+%ld, len=%lu",
						   (long)gap, (long)dist);
				} else {
					guard_case(fn, impl, f, dist, s, -1, len,
						   "guard: src ends at page-%ld, dst starts at page+%ld, len=%lu",
						   (long)gap, (long)dist);
					guard_case(fn, impl, f, size - dist - len, gap, -1, len,
						   "guard: src starts at page+%ld, dst ends at page-%ld, len=%lu",
						   (long)gap, (long)dist);
				}
			}
}

/* memset against the guard pages: dst ends or starts gap bytes from one. */
static void guard_sets(const struct suite_impl *impl)
{
	size_t size = (size_t)(guard_hi - guard_lo);
	size_t k, gap, len;

	if (!guard_lo)
		return;
	for (k = 0; k < NGUARD; k++)
		for (len = guard_len(k), gap = 0; gap < 2 * W; gap++) {
			guard_case("memset", impl, NULL, size - gap - len, 0, 0xA5, len,
				   "guard: dst ends at page-%ld, c=%ld, len=%lu", (long)gap, 0xA5);
			guard_case("memset", impl, NULL, gap, 0, 0xA5, len,
				   "guard: dst starts at page+%ld, c=%ld, len=%lu", (long)gap, 0xA5);
		}
}

/*
 * Lengths past SMALL_MAX, and the offsets they run at.  4K is a multiple of every word and
 * block size: a code path for whole blocks alone.  The offset pairs give every dst - src mod
 * W (a merge shift wrong for one difference is wrong only there), and memset every dst_off
 * mod W; 1M+5 runs at the first NBIGOFF_HUGE, with dst - src 0, 1, 2 and -1, -2 mod W (each
 * of its cases costs a byte loop in U-mode as much as thousands of small ones).
 */
static const size_t suite_big_len[] = {
	1024 + 1, 1024 + 2, 1024 + 3, 1024 + 4, 1024 + 5, 1024 + 6, 1024 + 7,
	4 * 1024, 64 * 1024 + 3, BIG_MAX,
};
#define NBIG (sizeof(suite_big_len) / sizeof(suite_big_len[0]))
static const size_t suite_big_off[][2] = {
	{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 3, 5 }, { W - 1, W - 1 }, { W - 1, W - 3 },
	{ 2, W - 1 }, { 6, 2 }, { 5, 0 }, { 4, 0 },
};
#define NBIGOFF (sizeof(suite_big_off) / sizeof(suite_big_off[0]))
#define NBIGOFF_HUGE 6

/* Whether big length j runs at offset pair k. */
static int big_runs(size_t k, size_t j)
{
	return k < NBIGOFF_HUGE || suite_big_len[j] != BIG_MAX;
}

/* 0x5A: a byte below 0x80 (the others' top bit is set); 0x1A4 and -2: int to byte. */
static const int suite_set_c[] = { 0, 0x5A, 0xFF, 0x1A4, -2 };

static void group_copy(const struct suite_impl *impl, int move)
{
	const char *fn = move ? "memmove" : "memcpy";
	void *(*f)(void *, const void *, size_t) = move ? impl->move : impl->cpy;
	size_t doff, soff, len, k;

	for (doff = 0; doff < MAX_OFF; doff++)
		for (soff = 0; soff < MAX_OFF; soff++)
			for (len = 0; len <= MID_MAX; len += len < SMALL_MAX ? 1 : MID_STEP)
				copy_case(fn, impl, f, doff, soff, len);
	for (k = 0; k < NBIGOFF; k++)
		for (len = 0; len < NBIG; len++)
			if (big_runs(k, len))
				copy_case(fn, impl, f, suite_big_off[k][0],
					  suite_big_off[k][1], suite_big_len[len]);
	guard_copies(fn, impl, f, 0);
}

static void group_memcpy(const struct suite_impl *impl) { group_copy(impl, 0); }
static void group_memmove(const struct suite_impl *impl) { group_copy(impl, 1); }

/*
 * Overlapping memmove: every distance -len..len (and at least -3W..3W) for
 * every length to SMALL_MAX, at every source offset (sampled: the distances
 * past 3W at one source offset each, turning with the distance); distances
 * 1..129 both ways at 4 KiB and 16 KiB; a few far ones and large moves; and
 * lengths past SMALL_MAX at distances past 129, where a move that takes a far
 * dst for a disjoint one (a block of its own loads all done before its stores)
 * goes wrong: 130, len/2 and len-1 both ways.
 */
static void group_overlap(const struct suite_impl *impl)
{
	static const long far[] = { -100, -(long)(8 * W + 3), (long)(8 * W + 3), 100 };
	static const size_t big[] = { 1024 + 5, 64 * 1024 + 3 };
	static const size_t far_len[] = { 4096, FAR_LEN_MAX };
	static const size_t long_len[] = { SMALL_MAX + 1, 1024 + 5, 4096 + 3, FAR_LEN_MAX };
	long dist, dmax;
	size_t soff, len, k, j;

	for (soff = 0; soff < W; soff++) {
		for (len = 0; len <= SMALL_MAX; len++) {
			dmax = len > 3 * W ? (long)len : 3 * (long)W;
			for (dist = -dmax; dist <= dmax; dist++)
				if (SUITE_FULL || (dist >= -3 * (long)W && dist <= 3 * (long)W) ||
				    ((size_t)dist + len) % W == soff)
					overlap_case(impl, soff, dist, len);
		}
		for (k = 0; k < sizeof(far) / sizeof(far[0]); k++)
			for (len = 0; len <= SMALL_MAX; len++)
				overlap_case(impl, soff, far[k], len);
	}
	for (k = 0; k < sizeof(far_len) / sizeof(far_len[0]); k++)
		for (dist = 1; dist <= FAR_DIST_MAX; dist++) {
			overlap_case(impl, (size_t)dist % W, -dist, far_len[k]);
			overlap_case(impl, (size_t)dist % W, dist, far_len[k]);
		}
	for (k = 0; k < sizeof(big) / sizeof(big[0]); k++)
		for (j = 0; j < 8; j++) {
			static const long d[] = { -1, 1, -3, 3, -(long)W - 1, (long)W + 1, -(long)W, (long)W };

			overlap_case(impl, j % W, d[j], big[k]);
		}
	for (k = 0; k < sizeof(long_len) / sizeof(long_len[0]); k++)
		for (j = 0; j < 6; j++) {
			long n = (long)long_len[k];
			long d = j < 2 ? FAR_DIST_MAX + 1 : j < 4 ? n / 2 : n - 1;

			overlap_case(impl, (k + j) % W, j % 2 ? d : -d, long_len[k]);
		}
	guard_copies("memmove-overlap", impl, impl->move, 1);
}

/* Whether big offset pair k's dst_off is an earlier pair's: memset has run it. */
static int big_dst_seen(size_t k)
{
	size_t j;

	for (j = 0; j < k; j++)
		if (suite_big_off[j][0] == suite_big_off[k][0])
			return 1;
	return 0;
}

static void group_memset(const struct suite_impl *impl)
{
	size_t doff, len, k, ci;

	for (ci = 0; ci < sizeof(suite_set_c) / sizeof(suite_set_c[0]); ci++) {
		for (doff = 0; doff < MAX_OFF; doff++)
			for (len = 0; len <= MID_MAX; len += len < SMALL_MAX ? 1 : MID_STEP)
				set_case(impl, doff, suite_set_c[ci], len);
		for (k = 0; k < NBIGOFF; k++)
			for (len = 0; len < NBIG && !big_dst_seen(k); len++)
				if (big_runs(k, len))
					set_case(impl, suite_big_off[k][0], suite_set_c[ci],
						 suite_big_len[len]);
	}
	guard_sets(impl);
}

/* fn: the function a group calls, 0 cpy, 1 move, 2 set (see group_has()). */
static const struct {
	const char *name;
	const char *what;
	void (*run)(const struct suite_impl *impl);
	int fn;
} suite_groups[] = {
#if SUITE_FULL
#define MID_WHAT "len 0..1024"
#define FAR_WHAT "dist -len..len"
#else
#define MID_WHAT "len 0..256, 257..1024 step 2W+1"
#define FAR_WHAT "dist -3W..3W, -len..len sampled"
#endif
	{ "memcpy", "dst_off x src_off 0..2W-1, " MID_WHAT ", 1K+1..7, 4K, 64K+3 at "
	  "every dst-src mod W, 1M+5 at 6 of them; guard pages", group_memcpy, 0 },
	{ "memmove", "disjoint, as memcpy", group_memmove, 1 },
	{ "memmove-overlap", "src_off 0..W-1, " FAR_WHAT ", len 0..256; "
	  "4K and 16K at dist +-1..129; 1K+5, 64K+3; 257, 1K+5, 4K+3, 16K at dist +-130, "
	  "+-len/2, +-(len-1); guard pages", group_overlap, 1 },
	{ "memset", "dst_off 0..2W-1, " MID_WHAT " and large, c 0 0x5A 0xFF 0x1A4 -2; guard pages",
	  group_memset, 2 },
};
#define NGROUPS (sizeof(suite_groups) / sizeof(suite_groups[0]))

/* Whether impl has the function group g calls (a reference may lack one). */
static int group_has(size_t g, const struct suite_impl *impl)
{
	return suite_groups[g].fn == 0 ? impl->cpy != NULL :
	       suite_groups[g].fn == 1 ? impl->move != NULL : impl->set != NULL;
}

void suite_run(const struct suite_impl *impls, int nimpls,
	       const struct suite_hooks *hooks, struct suite_result *res)
{
	size_t g, i;
	int k, n = 0;
	union {
		unsigned long w;
		unsigned char b[sizeof(unsigned long)];
	} probe = { 1 };

	proto_line(TAG_TARGET, "%d-bit %s-endian (word %d bytes, runtime probe: first byte of 1 is %d)\n",
	       (int)(8 * sizeof(void *)),
	       probe.b[0] ? "little" : "big", (int)W, probe.b[0]);

	for (i = 0; i < SPAN; i++) {
		suite_spre[i] = suite_src[i] = pattern(i, 1, 13, 5);
		suite_dst[i] = suite_dpre[i] = pattern(i, 0x9e3779b9u, 37, 15);
	}
	shift_rows(suite_srows[0], SROW, suite_spre, 0);
	shift_rows(suite_drows[0], DROW, suite_dpre, OVERLAP_BASE);
	if (guard_lo) {
		for (i = 0; i < (size_t)(guard_hi - guard_lo); i++)
			guard_lo[i] = gpat(i);
		proto_line(TAG_GUARD, "%lu bytes at %p between inaccessible pages: "
			   "calls against them in every group\n",
		       (unsigned long)(guard_hi - guard_lo), (void *)guard_lo);
	} else {
		proto_line(TAG_SKIP, "guard pages: none on this target (no mmap, no MMU set up); "
			   "the host, qemu-user and image runs have them\n");
	}

	/* The groups to come, so that a reader can tell a run cut short. */
	suite_ours = &impls[0];
	for (g = 0; g < NGROUPS; g++)
		for (k = 0; k < nimpls; k++)
			n += group_has(g, &impls[k]);
	proto_line(TAG_PLAN, "%d groups:", n);
	for (g = 0; g < NGROUPS; g++)
		for (k = 0; k < nimpls; k++)
			if (group_has(g, &impls[k]))
				printf(" %s[%s]", suite_groups[g].name, impls[k].name);
	for (k = 0; k < nimpls; k++)
		if (impls[k].note)
			printf("; %s: %s", impls[k].name, impls[k].note);
	printf("\n");

	for (g = 0; g < NGROUPS; g++) {
		for (k = 0; k < nimpls; k++) {
			const struct suite_impl *impl = &impls[k];
			unsigned long extra = 0;

			if (!group_has(g, impl)) {
				if (is_own(impl))
					proto_line(TAG_SKIP, "%s[%s]: its file defines no %s\n",
						   suite_groups[g].name, impl->name,
						   suite_groups[g].fn == 2 ? "memset" :
						   suite_groups[g].fn ? "memmove" : "memcpy");
				continue;
			}
			suite_cases = suite_fails = 0;
			if (hooks && hooks->group_begin)
				hooks->group_begin(suite_groups[g].name, impl);
			suite_groups[g].run(impl);
			suite_now.fn = NULL;
			if (hooks && hooks->group_end)
				extra = hooks->group_end(suite_groups[g].name, impl);
			res->checks += suite_cases;
			res->groups++;
			if (is_own(impl) && (suite_fails || extra)) {
				res->failures += suite_fails + extra;
				res->failed_groups++;
			}
			if (suite_fails || extra) {
				proto_line(fail_tag(impl), "%s[%s]: %lu of %lu cases failed (%s)",
				       suite_groups[g].name, impl->name,
				       suite_fails, suite_cases, suite_groups[g].what);
				if (extra)
					printf("; %lu misaligned accesses counted while it ran",
					       extra);
				printf("\n");
			} else {
				proto_line(TAG_PASS, "%s[%s]: %lu cases (%s)\n",
				       suite_groups[g].name, impl->name, suite_cases,
				       suite_groups[g].what);
			}
		}
	}
}

int suite_summary(const struct suite_result *res)
{
	proto_line(TAG_SUMMARY, "%u groups, %lu checks, %u groups failed, %lu failures\n",
	       res->groups, res->checks, res->failed_groups, res->failures);
	return res->failed_groups ? 1 : 0;
}
