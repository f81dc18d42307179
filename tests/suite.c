// SPDX-License-Identifier: MIT
/*
 * The correctness suite (see suite.h).  Every case runs on a window of a
 * buffer: the bytes the call may write plus two words of poison guard on each
 * side.  The window is re-filled from a pristine pattern before each call, a
 * byte-by-byte model of the call writes the expected window, and the two must
 * match byte for byte, guards included.  The source must be unchanged and the
 * return value must be dst.
 *
 * Compile with -fno-builtin -fno-tree-loop-distribute-patterns: the model's
 * byte loops must stay byte loops, not calls to the functions under test.
 */
#include <stdint.h>
#include <stdio.h>

#include "suite.h"

#define W ((size_t)sizeof(unsigned long))
#define GUARD (2 * W)         /* poison bytes checked on each side */
#define MAX_OFF (2 * W)       /* offsets 0 .. 2W-1 */
#define SMALL_MAX 256         /* every length 0..SMALL_MAX */
#define BIG_MAX ((size_t)1024 * 1024 + 5)
#define SPAN (BIG_MAX + 2 * MAX_OFF + 2 * GUARD + 256)
#define DETAIL_MAX 5          /* FAIL lines printed per group and impl */

static _Alignas(64) unsigned char suite_src[SPAN];  /* source pattern */
static _Alignas(64) unsigned char suite_dpre[SPAN]; /* pristine dst pattern */
static _Alignas(64) unsigned char suite_dst[SPAN];  /* what the call wrote */
static _Alignas(64) unsigned char suite_exp[SPAN];  /* what the model wrote */

/* Per group and implementation: cases run, cases failed. */
static unsigned long suite_cases, suite_fails;

static unsigned char pattern(size_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	return (unsigned char)(x ^ (x >> 12) ^ (x >> 24));
}

static void bytes_copy(unsigned char *d, const unsigned char *s, size_t n)
{
	while (n--)
		*d++ = *s++;
}

/* Index of the first difference in [0, n), or n. */
static size_t bytes_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * One failed case: count it always, print it while few.  `desc` names the
 * case; at/expected/got locate the first wrong byte relative to dst
 * (expected < 0: the return value was wrong).
 */
static void case_fail(const char *fn, const struct suite_impl *impl,
		      const char *desc, long at, int expected, int got)
{
	if (++suite_fails > DETAIL_MAX)
		return;
	if (expected < 0)
		printf("FAIL: %s[%s] %s: returned a pointer other than dst\n",
		       fn, impl->name, desc);
	else
		printf("FAIL: %s[%s] %s: byte at dst%+ld expected 0x%02x got 0x%02x\n",
		       fn, impl->name, desc, at, expected, got);
}

/*
 * Run one copy case: dst = suite_dst + GUARD + doff, src = suite_src + GUARD
 * + soff, disjoint buffers.  Checks window, guards, source and return value.
 */
static void copy_case(const char *fn, const struct suite_impl *impl,
		      void *(*f)(void *, const void *, size_t),
		      size_t doff, size_t soff, size_t len)
{
	size_t win = GUARD + doff + len + GUARD;
	unsigned char *dst = suite_dst + GUARD + doff;
	const unsigned char *src = suite_src + GUARD + soff;
	char desc[80];
	size_t at;
	void *ret;

	suite_cases++;
	bytes_copy(suite_dst, suite_dpre, win);
	bytes_copy(suite_exp, suite_dpre, win);
	bytes_copy(suite_exp + GUARD + doff, src, len);

	ret = f(dst, src, len);
	at = bytes_diff(suite_dst, suite_exp, win);
	if (ret == dst && at == win) {
		/* The source pattern is pure: check nothing wrote to it. */
		for (at = 0; at < GUARD + soff + len + GUARD; at++)
			if (suite_src[at] != pattern(at, 1))
				break;
		if (at == GUARD + soff + len + GUARD)
			return;
	}
	snprintf(desc, sizeof(desc), "dst_off=%lu src_off=%lu len=%lu",
		 (unsigned long)doff, (unsigned long)soff, (unsigned long)len);
	if (ret != dst)
		case_fail(fn, impl, desc, 0, -1, 0);
	else if (at != win)
		case_fail(fn, impl, desc, (long)at - (long)(GUARD + doff),
			  suite_exp[at], suite_dst[at]);
	else {
		printf("FAIL: %s[%s] %s: source byte src%+ld changed\n", fn,
		       impl->name, desc, (long)at - (long)(GUARD + soff));
		suite_fails++;
		for (at = 0; at < SPAN; at++)
			suite_src[at] = pattern(at, 1);
	}
}

/*
 * memmove within one buffer: src = base + soff, dst = src + dist.  The model
 * reads the source before writing, as memmove's "as if through a temporary".
 */
static void overlap_case(const struct suite_impl *impl, size_t soff, long dist,
			 size_t len)
{
	/* base leaves room for the most negative distance and the guard. */
	size_t base = GUARD + 4096;
	size_t s = base + soff;
	size_t d = (size_t)((long)s + dist);
	size_t lo = (s < d ? s : d) - GUARD;
	size_t hi = (s > d ? s : d) + len + GUARD;
	char desc[80];
	size_t at, i;
	void *ret;

	suite_cases++;
	bytes_copy(suite_dst + lo, suite_dpre + lo, hi - lo);
	bytes_copy(suite_exp + lo, suite_dpre + lo, hi - lo);
	if (d < s)
		for (i = 0; i < len; i++)
			suite_exp[d + i] = suite_exp[s + i];
	else
		for (i = len; i-- > 0;)
			suite_exp[d + i] = suite_exp[s + i];

	ret = impl->move(suite_dst + d, suite_dst + s, len);
	at = lo + bytes_diff(suite_dst + lo, suite_exp + lo, hi - lo);
	if (ret == suite_dst + d && at == hi)
		return;
	snprintf(desc, sizeof(desc), "src_off=%lu dist=%ld len=%lu",
		 (unsigned long)soff, dist, (unsigned long)len);
	if (ret != suite_dst + d)
		case_fail("memmove-overlap", impl, desc, 0, -1, 0);
	else
		case_fail("memmove-overlap", impl, desc, (long)at - (long)d,
			  suite_exp[at], suite_dst[at]);
}

static void set_case(const struct suite_impl *impl, size_t doff, int c, size_t len)
{
	size_t win = GUARD + doff + len + GUARD;
	unsigned char *dst = suite_dst + GUARD + doff;
	char desc[80];
	size_t at, i;
	void *ret;

	suite_cases++;
	bytes_copy(suite_dst, suite_dpre, win);
	bytes_copy(suite_exp, suite_dpre, win);
	for (i = 0; i < len; i++)
		suite_exp[GUARD + doff + i] = (unsigned char)c;

	ret = impl->set(dst, c, len);
	at = bytes_diff(suite_dst, suite_exp, win);
	if (ret == dst && at == win)
		return;
	snprintf(desc, sizeof(desc), "dst_off=%lu len=%lu c=%d",
		 (unsigned long)doff, (unsigned long)len, c);
	if (ret != dst)
		case_fail("memset", impl, desc, 0, -1, 0);
	else
		case_fail("memset", impl, desc, (long)at - (long)(GUARD + doff),
			  suite_exp[at], suite_dst[at]);
}

/* Lengths past SMALL_MAX, and the offsets they run at. */
static const size_t suite_big_len[] = {
	1024 + 1, 1024 + 2, 1024 + 3, 1024 + 4, 1024 + 5, 1024 + 6, 1024 + 7,
	64 * 1024 + 3, BIG_MAX,
};
#define NBIG (sizeof(suite_big_len) / sizeof(suite_big_len[0]))
static const size_t suite_big_off[][2] = {
	{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 3, 5 }, { W - 1, W - 1 }, { W - 1, 1 },
};
#define NBIGOFF (sizeof(suite_big_off) / sizeof(suite_big_off[0]))

static const int suite_set_c[] = { 0, 0xA5, 0xFF, 0x1A4, -2 };

static void group_copy(const struct suite_impl *impl, int move)
{
	const char *fn = move ? "memmove" : "memcpy";
	void *(*f)(void *, const void *, size_t) = move ? impl->move : impl->cpy;
	size_t doff, soff, len, k;

	for (doff = 0; doff < MAX_OFF; doff++)
		for (soff = 0; soff < MAX_OFF; soff++)
			for (len = 0; len <= SMALL_MAX; len++)
				copy_case(fn, impl, f, doff, soff, len);
	for (k = 0; k < NBIGOFF; k++)
		for (len = 0; len < NBIG; len++)
			copy_case(fn, impl, f, suite_big_off[k][0],
				  suite_big_off[k][1], suite_big_len[len]);
}

static void group_memcpy(const struct suite_impl *impl) { group_copy(impl, 0); }
static void group_memmove(const struct suite_impl *impl) { group_copy(impl, 1); }

static void group_overlap(const struct suite_impl *impl)
{
	static const long far[] = { -100, -(long)(8 * W + 3), (long)(8 * W + 3), 100 };
	static const size_t big[] = { 1024 + 5, 64 * 1024 + 3 };
	long dist;
	size_t soff, len, k, j;

	for (soff = 0; soff < W; soff++) {
		for (dist = -3 * (long)W; dist <= 3 * (long)W; dist++)
			for (len = 0; len <= SMALL_MAX; len++)
				overlap_case(impl, soff, dist, len);
		for (k = 0; k < sizeof(far) / sizeof(far[0]); k++)
			for (len = 0; len <= SMALL_MAX; len++)
				overlap_case(impl, soff, far[k], len);
	}
	for (k = 0; k < sizeof(big) / sizeof(big[0]); k++)
		for (j = 0; j < 8; j++) {
			static const long d[] = { -1, 1, -3, 3, -(long)W - 1, (long)W + 1, -(long)W, (long)W };

			overlap_case(impl, j % W, d[j], big[k]);
		}
}

static void group_memset(const struct suite_impl *impl)
{
	size_t doff, len, k, ci;

	for (ci = 0; ci < sizeof(suite_set_c) / sizeof(suite_set_c[0]); ci++) {
		for (doff = 0; doff < MAX_OFF; doff++)
			for (len = 0; len <= SMALL_MAX; len++)
				set_case(impl, doff, suite_set_c[ci], len);
		for (k = 0; k < NBIGOFF; k++)
			for (len = 0; len < NBIG; len++)
				set_case(impl, suite_big_off[k][0], suite_set_c[ci],
					 suite_big_len[len]);
	}
}

static const struct {
	const char *name;
	const char *what;
	void (*run)(const struct suite_impl *impl);
} suite_groups[] = {
	{ "memcpy", "dst_off x src_off 0..2W-1, len 0..256 and 1K+1..7, 64K+3, 1M+5", group_memcpy },
	{ "memmove", "disjoint, as memcpy", group_memmove },
	{ "memmove-overlap", "src_off 0..W-1, dist -3W..3W and far, len 0..256, 1K+5, 64K+3", group_overlap },
	{ "memset", "dst_off 0..2W-1, len 0..256 and large, c 0 0xA5 0xFF 0x1A4 -2", group_memset },
};

void suite_run(const struct suite_impl *impls, int nimpls,
	       const struct suite_hooks *hooks, struct suite_result *res)
{
	size_t g, i;
	int k;
	union {
		unsigned long w;
		unsigned char b[sizeof(unsigned long)];
	} probe = { 1 };

	printf("TARGET: %d-bit %s-endian (word %d bytes, runtime probe: first byte of 1 is %d)\n",
	       (int)(8 * sizeof(void *)),
	       probe.b[0] ? "little" : "big", (int)W, probe.b[0]);

	for (i = 0; i < SPAN; i++) {
		suite_src[i] = pattern(i, 1);
		suite_dpre[i] = pattern(i, 0x9e3779b9u);
	}

	for (g = 0; g < sizeof(suite_groups) / sizeof(suite_groups[0]); g++) {
		for (k = 0; k < nimpls; k++) {
			const struct suite_impl *impl = &impls[k];
			unsigned long extra = 0;

			suite_cases = suite_fails = 0;
			if (hooks && hooks->group_begin)
				hooks->group_begin(suite_groups[g].name, impl);
			suite_groups[g].run(impl);
			if (hooks && hooks->group_end)
				extra = hooks->group_end(suite_groups[g].name, impl);
			res->checks += suite_cases;
			res->failures += suite_fails + extra;
			res->groups++;
			if (suite_fails || extra) {
				res->failed_groups++;
				printf("FAIL: %s[%s]: %lu of %lu cases failed (%s)",
				       suite_groups[g].name, impl->name,
				       suite_fails, suite_cases, suite_groups[g].what);
				if (extra)
					printf("; %lu misaligned accesses counted while it ran",
					       extra);
				printf("\n");
			} else {
				printf("PASS: %s[%s]: %lu cases (%s)\n",
				       suite_groups[g].name, impl->name, suite_cases,
				       suite_groups[g].what);
			}
		}
	}
}

int suite_summary(const struct suite_result *res)
{
	printf("SUMMARY: %u groups, %lu checks, %u groups failed, %lu failures\n",
	       res->groups, res->checks, res->failed_groups, res->failures);
	return res->failed_groups ? 1 : 0;
}
