// SPDX-License-Identifier: MIT
/*
 * Host test: lib stays inside the objects it is given.  Every call runs on
 * heap objects of exactly the call's size: each source and destination is
 * its own malloc() block, and under Valgrind the bytes of the block below
 * the object are made inaccessible, so the object is exact at both ends
 * (AddressSanitizer knows an object's exact end; a start that is not
 * 8-aligned it cannot draw, so under it the start is exact only at offsets
 * 0 and 8).  A checker that sees a read or write outside them reports it
 * and stops the program: tests/tests.cfg runs this under ASan + UBSan
 * (GCC and clang, both builds of lib), under Valgrind's memcheck with
 * --partial-loads-ok=no, and under MemorySanitizer (clang), to which the
 * padding past each block's end is uninitialised.
 *
 *   exact            the cases (below); PASS:/FAIL: exact: ...
 *   exact over-src   a memcpy one byte past its source object
 *   exact over-dst   a memcpy one byte past its destination object
 *   exact over-set   a memset one byte past its object
 *   exact race       calls on objects whose neighbours in their words
 *                    another thread wrote (race_cases() below)
 *   exact uninit     copies of bytes nobody wrote (uninit() below)
 *   exact uninit-use one such copy, then a branch on a copied byte
 * The over-* calls and uninit-use are the controls: the checker must report each.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/wordmerge.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_NOACCESS
#define VALGRIND_MAKE_MEM_NOACCESS(p, n) ((void)(p), (void)(n))
#endif

#define W sizeof(unsigned long)
#define MAX_OFF (2 * W)       /* offsets 0 .. 2W-1 */
#define SMALL_MAX 256         /* every length 0..SMALL_MAX at every offset pair */

static unsigned long cases, fails;

/* An object of n bytes at offset off of its own block: [p, p + n) exactly. */
static unsigned char *object(size_t off, size_t n, unsigned char **block)
{
	/* One byte for an empty object: malloc(0) may return NULL. */
	unsigned char *b = malloc(off + n ? off + n : 1);

	if (!b) {
		printf("FAIL: exact: out of memory (%zu bytes)\n", off + n);
		exit(1);
	}
	*block = b;
	VALGRIND_MAKE_MEM_NOACCESS(b, off);
	return b + off;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + seed);
}

static void check(const char *fn, int ok, size_t a, size_t b, size_t n)
{
	cases++;
	if (!ok && fails++ < 5)
		printf("FAIL: exact: %s src_off=%zu dst_off=%zu n=%zu: wrong bytes\n", fn, a, b, n);
}

/* memcpy and memmove between two exact objects. */
static void copy_case(size_t soff, size_t doff, size_t n)
{
	unsigned char *sb, *db, *s = object(soff, n, &sb), *d = object(doff, n, &db);
	unsigned char *ref = malloc(n + 1);
	size_t i;
	int ok;

	fill(s, n, (unsigned)(n + soff));
	memcpy(ref, s, n);
	ok = wm_memcpy(d, s, n) == d;
	for (i = 0; i < n; i++)
		ok &= d[i] == ref[i];
	check("memcpy", ok, soff, doff, n);
	memset(d, 0, n);
	ok = wm_memmove(d, s, n) == d;
	for (i = 0; i < n; i++)
		ok &= d[i] == ref[i] && s[i] == ref[i];
	check("memmove", ok, soff, doff, n);
	free(ref);
	free(sb);
	free(db);
}

/* memmove within one exact object: dst below src (forward) or above it. */
static void overlap_case(size_t off, size_t dist, size_t n, int back)
{
	unsigned char *blk, *o = object(off, n + dist, &blk);
	unsigned char *s = back ? o : o + dist, *d = back ? o + dist : o;
	unsigned char *ref = malloc(n + 1);
	size_t i;
	int ok;

	fill(o, n + dist, (unsigned)(n + dist + back));
	memcpy(ref, s, n);
	ok = wm_memmove(d, s, n) == d;
	for (i = 0; i < n; i++)
		ok &= d[i] == ref[i];
	check(back ? "memmove (backward, overlapping)" : "memmove (forward, overlapping)", ok,
	      (size_t)(s - o) + off, (size_t)(d - o) + off, n);
	free(ref);
	free(blk);
}

/* memset of an exact object; c beyond 0..255 too (memset stores (unsigned char)c). */
static void set_case(size_t doff, size_t n, int c)
{
	unsigned char *db, *d = object(doff, n, &db);
	size_t i;
	int ok;

	fill(d, n, (unsigned)n);
	ok = wm_memset(d, c, n) == d;
	for (i = 0; i < n; i++)
		ok &= d[i] == (unsigned char)c;
	check("memset", ok, 0, doff, n);
	free(db);
}

/*
 * Objects whose neighbours, the other bytes of their words, belong to
 * another thread, as a program's other fields may: that thread writes them
 * with no synchronisation with the calls, so ThreadSanitizer reports any
 * read of them as a data race (tests/tests.cfg runs this under it; its
 * control is lib built with its word loads, which must be reported).  A
 * case a slot each: its source, its destination, and one object for an
 * overlapping memmove, each a word into its slot; lengths 0..4W+1 cover
 * the short copies, the heads, the merges and the tails.
 */
#define SLOT (8 * W)
#define RACE_N (4 * W + 2)
#define RACE_CASES (W * W * RACE_N)
static _Alignas(64) unsigned char race_slot[RACE_CASES][3][SLOT];
static atomic_int race_written, race_done;

/* Case k's object in slot i: its offset in the slot and its length. */
static void race_object(size_t k, int i, size_t *off, size_t *len)
{
	size_t soff = k % W, doff = k / W % W, n = k / (W * W);

	*off = W + (i == 1 ? doff : soff);
	*len = i == 2 ? n + doff + 1 : n;	/* the overlap: dst doff + 1 from src */
}

static void *race_neighbours(void *arg)
{
	size_t k, j, off, len;
	int i;

	(void)arg;
	for (k = 0; k < RACE_CASES; k++)
		for (i = 0; i < 3; i++) {
			race_object(k, i, &off, &len);
			for (j = 0; j < SLOT; j++)
				if (j < off || j >= off + len)
					race_slot[k][i][j] = (unsigned char)(j ^ 0x5a);
		}
	/*
	 * Relaxed: the calls must not be ordered after these writes.  The
	 * thread lives on until they end: once it had ended, clang 14's
	 * ThreadSanitizer reported no race with its writes.
	 */
	atomic_store_explicit(&race_written, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&race_done, memory_order_relaxed))
		sched_yield();
	return NULL;
}

static int race_cases(void)
{
	unsigned char ref[SLOT];
	pthread_t t;
	size_t k, i, so, n, dof, oo, on;

	for (k = 0; k < RACE_CASES; k++)
		fill(race_slot[k][0], 3 * SLOT, (unsigned)k);
	if (pthread_create(&t, NULL, race_neighbours, NULL)) {
		printf("FAIL: exact race: cannot start a thread\n");
		return 1;
	}
	while (!atomic_load_explicit(&race_written, memory_order_relaxed))
		sched_yield();
	for (k = 0; k < RACE_CASES; k++) {
		unsigned char *s, *d, *o;
		size_t dist;
		int ok, back;

		race_object(k, 0, &so, &n);
		race_object(k, 1, &dof, &n);
		race_object(k, 2, &oo, &on);
		dist = on - n;	/* the overlap object holds both ends */
		s = race_slot[k][0] + so, d = race_slot[k][1] + dof, o = race_slot[k][2] + oo;
		ok = wm_memcpy(d, s, n) == d;
		for (i = 0; i < n; i++)
			ok &= d[i] == s[i];
		check("memcpy", ok, so, dof, n);
		ok = wm_memset(d, 0xa5, n) == d;
		for (i = 0; i < n; i++)
			ok &= d[i] == 0xa5;
		check("memset", ok, 0, dof, n);
		ok = wm_memmove(d, s, n) == d;
		for (i = 0; i < n; i++)
			ok &= d[i] == s[i];
		check("memmove", ok, so, dof, n);
		for (back = 0; back < 2; back++) {
			unsigned char *ms = back ? o : o + dist, *md = back ? o + dist : o;

			for (i = 0; i < n; i++)
				ref[i] = ms[i];
			ok = wm_memmove(md, ms, n) == md;
			for (i = 0; i < n; i++)
				ok &= md[i] == ref[i];
			check(back ? "memmove (backward, overlapping)" : "memmove (forward, overlapping)",
			      ok, oo + (size_t)(ms - o), oo + (size_t)(md - o), n);
		}
	}
	atomic_store_explicit(&race_done, 1, memory_order_relaxed);
	pthread_join(t, NULL);
	printf("%s: exact race: %lu calls on objects whose neighbours another thread wrote "
	       "(src and dst offsets 0..W-1, len 0..4W+1; overlapping memmove both ways), "
	       "%lu wrong results\n",
	       fails ? "FAIL" : "PASS", cases, fails);
	return fails != 0;
}

/* One call one byte past an object of 37 bytes that ends inside an 8-byte granule. */
static int over(const char *what)
{
	unsigned char *ob, *o = object(3, 37, &ob);
	unsigned char *big = malloc(256);

	if (!big)
		return 1;
	fill(o, 37, 1);
	if (!strcmp(what, "over-src"))
		wm_memcpy(big + 5, o, 38);
	else if (!strcmp(what, "over-dst"))
		wm_memcpy(o, big + 5, 38);
	else if (!strcmp(what, "over-set"))
		wm_memset(o, 0x5a, 38);
	else {
		fprintf(stderr, "exact: unknown argument '%s' (over-src, over-dst, over-set, race, "
			"uninit, uninit-use)\n", what);
		return 2;
	}
	/* Reached only when the checker saw nothing. */
	printf("FAIL: exact: %s: a call one byte past its object was not reported\n", what);
	free(big);
	free(ob);
	return 1;
}

/*
 * A copy of bytes nobody wrote, as of a struct's padding or a half-filled
 * buffer, is no error; using one is.  Of each source only its first byte is
 * written: memcpy, memmove to another block and overlapping memmove both ways,
 * every offset pair 0..W-1, n 0..300 and 4096, must pass unreported under
 * MemorySanitizer and Valgrind (lib only moves the bytes).  With use, one
 * copy and then a branch on a copied byte, which the checker must report
 * here, in the caller: the bytes' state went through lib, not lost in it.
 */
static void uninit_case(size_t soff, size_t doff, size_t n, int use)
{
	unsigned char *s = malloc(n + 3 * W), *d = malloc(n + W);

	if (!s || !d) {
		printf("FAIL: exact: out of memory (%zu bytes)\n", n + 3 * W);
		exit(1);
	}
	s[soff] = 1;
	wm_memcpy(d + doff, s + soff, n);
	wm_memmove(d + doff, s + soff, n);
	wm_memmove(s + doff, s + W + soff, n);
	wm_memmove(s + W + doff, s + soff, n);
	if (use && d[doff + n / 2])
		printf("exact uninit-use: a copied byte is not 0\n");
	free(s);
	free(d);
	cases += 4;
}

static int uninit(int use)
{
	size_t soff, doff, n;

	for (n = 0; n <= 301; n++)
		for (soff = 0; soff < W; soff++)
			for (doff = 0; doff < W; doff++)
				uninit_case(soff, doff, n <= 300 ? n : 4096, use && n == 64);
	printf("%s: exact %s: %lu copies of bytes never written (memcpy, memmove apart, "
	       "overlapping both ways; offsets 0..W-1, n 0..300 and 4096)\n",
	       use ? "FAIL" : "PASS", use ? "uninit-use" : "uninit", cases);
	return use;
}

int main(int argc, char **argv)
{
	static const size_t big[] = { 257, 1024 + 1, 1024 + 7, 4096 + 3, 64 * 1024 + 3, 1024 * 1024 + 5 };
	size_t soff, doff, n, dist, i;
	int back;

	if (argc > 1 && !strncmp(argv[1], "uninit", 6))
		return uninit(!strcmp(argv[1], "uninit-use"));
	if (argc > 1)
		return strcmp(argv[1], "race") ? over(argv[1]) : race_cases();
	for (n = 0; n <= SMALL_MAX; n++)
		for (soff = 0; soff < MAX_OFF; soff++)
			for (doff = 0; doff < MAX_OFF; doff++)
				copy_case(soff, doff, n);
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		for (soff = 0; soff < MAX_OFF; soff++)
			for (doff = 0; doff < W; doff += 3)
				copy_case(soff, doff, big[i]);
	for (back = 0; back < 2; back++)
		for (soff = 0; soff < W; soff++)
			for (dist = 1; dist < 3 * W; dist++)
				for (n = 1; n <= SMALL_MAX; n += n < 4 * W ? 1 : 5)
					overlap_case(soff, dist, n, back);
	for (n = 0; n <= SMALL_MAX; n++)
		for (doff = 0; doff < MAX_OFF; doff++)
			set_case(doff, n, (int)((n * MAX_OFF + doff) * 131 % 600) - 300);
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		for (doff = 0; doff < MAX_OFF; doff++)
			set_case(doff, big[i], (int)(i * 97 + doff) - 128);
	printf("%s: exact: %lu calls on heap objects of exactly the call's size "
	       "(dst_off x src_off 0..2W-1, len 0..256 and 6 longer; overlapping memmove both ways; "
	       "memset c -300..299), %lu wrong results\n",
	       fails ? "FAIL" : "PASS", cases, fails);
	return fails != 0;
}
