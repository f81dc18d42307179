// SPDX-License-Identifier: MIT
/*
 * Sizes past PTRDIFF_MAX on a 32-bit host (gcc -m32), the case of glibc's
 * tst-memmove-overflow: memmove forward and backward, memcpy and memset of
 * 2 GiB + 8 MiB - 1 bytes, built with UndefinedBehaviorSanitizer's
 * pointer-overflow check (tests/build.mk: make huge; tests/tests.cfg: huge-*).  Any pointer that
 * lib forms from an index past PTRDIFF_MAX stops the run there.
 *
 * One mapping of ~2 GiB + 8 MiB (MAP_NORESERVE): two disjoint buffers of
 * more than 2 GiB do not fit in a 32-bit address space, so every call works
 * within the one mapping, with dst and src a few bytes apart.  memcpy is
 * called with dst below src: lib's memcpy is its forward copy, which is
 * exact for dst < src (the suite's memmove checks that very path).  The
 * result is checked at sampled bytes: the first and last 64 KiB whole, and
 * every 4099th byte between (a prime stride, so the samples fall at every
 * offset within a word), against the model of each call.  Only the bytes
 * that the model of a sampled byte reads are filled (a hash of their
 * position), not all 2 GiB; the rest keep the mapping's zeros, which the
 * model knows too.
 *
 * A machine that cannot map that much, or has not the memory to back it,
 * prints a SKIP: line and exits 77 (the test runner's "skipped", tests/run.py).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../lib/wordmerge.h"

#define HUGE_N ((size_t)2048 * 1024 * 1024 + 8 * 1024 * 1024 - 1)
#define SLACK ((size_t)64 * 1024)   /* room for the shifts, both ends */
#define EDGE ((size_t)64 * 1024)    /* checked whole at each end */
#define STRIDE 4099                 /* sampled between */

static unsigned char *buf;
static size_t buf_len;
static unsigned long checked, wrong;

/*
 * buf[i] for any i: GCC takes a pointer offset for a signed one, so buf + i
 * with i past PTRDIFF_MAX is itself what the sanitizer reports; the test
 * forms its addresses as integers.
 */
#define AT(i) (*(unsigned char *)((uintptr_t)buf + (i)))

/* The fill: byte i is byte i % 4 of a hash of i / 4 (one hash per 4 bytes). */
static uint32_t hash4(size_t j)
{
	uint32_t x = (uint32_t)j * 2654435761u;

	return x ^ x >> 15;
}

static unsigned char pat(size_t i)
{
	return (unsigned char)(hash4(i / 4) >> 8 * (i % 4));
}

/* Bytes of the mapping before the calls, and the model after each. */
enum step { FILLED, MOVED_FWD, MOVED_BWD, COPIED, SET };
static const size_t fwd_shift = 3, bwd_shift = 4096 + 5, cpy_shift = 8;
static const size_t base = SLACK / 2;   /* where the calls' lowest dst is */
#define SET_C 0x5a

/* The sampled bytes in order, from 0: the edges whole, every STRIDE-th between. */
static size_t next_sample(size_t i)
{
	if (i + 1 < EDGE || i >= buf_len - EDGE)
		return i + 1;
	if (i < EDGE)
		return EDGE;
	return i + STRIDE < buf_len - EDGE ? i + STRIDE : buf_len - EDGE;
}

static int sampled(size_t i)
{
	return i < buf_len - EDGE ? i < EDGE || (i - EDGE) % STRIDE == 0 : i < buf_len;
}

/*
 * How far from a sampled byte the bytes its model reads are: each call takes
 * a dst byte from its src one shift away, so any sum of the three copies'
 * shifts (k's bits choose them).
 */
static size_t reach(unsigned k)
{
	return (k & 1 ? fwd_shift : 0) - (k & 2 ? bwd_shift : 0) + (k & 4 ? cpy_shift : 0);
}

static int filled(size_t i)
{
	unsigned k;

	for (k = 0; k < 8; k++)
		if (sampled(i - reach(k)))
			return 1;
	return 0;
}

static unsigned char model(enum step st, size_t i)
{
	switch (st) {
	case FILLED:
		return filled(i) ? pat(i) : 0;
	case MOVED_FWD:  /* memmove(buf + base, buf + base + 3, n) */
		return i >= base && i < base + HUGE_N ? model(FILLED, i + fwd_shift)
						       : model(FILLED, i);
	case MOVED_BWD:  /* memmove(buf + base + 4101, buf + base, n) */
		return i >= base + bwd_shift && i < base + bwd_shift + HUGE_N
			       ? model(MOVED_FWD, i - bwd_shift) : model(MOVED_FWD, i);
	case COPIED:     /* memcpy(buf + base + 1, buf + base + 1 + 8, n) */
		return i >= base + 1 && i < base + 1 + HUGE_N
			       ? model(MOVED_BWD, i + cpy_shift) : model(MOVED_BWD, i);
	case SET:        /* memset(buf + base + 2, 0x5a, n) */
		return i >= base + 2 && i < base + 2 + HUGE_N ? SET_C : model(COPIED, i);
	}
	return 0;
}

static void check_at(const char *what, enum step st, size_t i)
{
	unsigned char want = model(st, i);

	checked++;
	if (AT(i) != want && ++wrong <= 5)
		printf("FAIL: huge %s: byte at buf+%zu (the lowest dst is buf+%zu) expected 0x%02x got 0x%02x\n",
		       what, i, base, want, AT(i));
}

static int check(const char *what, enum step st, void *ret, void *dst)
{
	unsigned long before = wrong;
	size_t i;

	if (ret != dst) {
		printf("FAIL: huge %s: returned a pointer other than dst\n", what);
		wrong++;
	}
	for (i = 0; i < buf_len; i = next_sample(i))
		check_at(what, st, i);
	if (wrong == before)
		printf("PASS: huge %s of %zu bytes (0x%zx)\n", what, HUGE_N, HUGE_N);
	return wrong == before;
}

/* Enough memory to back the mapping, from /proc/meminfo (kB). */
static unsigned long long mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

int main(void)
{
	unsigned long long avail = mem_available();
	size_t i;
	void *ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TARGET: %d-bit, PTRDIFF_MAX 0x%llx, n = 2 GiB + 8 MiB - 1 = 0x%zx\n",
	       (int)(8 * sizeof(void *)), (unsigned long long)PTRDIFF_MAX, HUGE_N);
	if (HUGE_N <= (size_t)PTRDIFF_MAX) {
		printf("SKIP: huge: n does not exceed PTRDIFF_MAX here (build with -m32)\n");
		return 77;
	}
	buf_len = HUGE_N + SLACK;
	if (avail < (unsigned long long)buf_len + (256ull << 20)) {
		printf("SKIP: huge: %llu MiB of memory available, %zu MiB needed to back the buffer\n",
		       avail >> 20, (buf_len >> 20) + 256);
		return 77;
	}
	buf = mmap(NULL, buf_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (buf == MAP_FAILED) {
		printf("SKIP: huge: cannot map %zu bytes in this 32-bit process\n",
		       buf_len);
		return 77;
	}
	printf("HUGE: buffer at 0x%lx..0x%lx\n", (unsigned long)(uintptr_t)buf,
	       (unsigned long)((uintptr_t)buf + buf_len));
	for (i = 0; i < buf_len; i = next_sample(i)) {
		unsigned k;

		for (k = 0; k < 8; k++)
			if (i + reach(k) < buf_len)
				AT(i + reach(k)) = pat(i + reach(k));
	}

	ret = wm_memmove(buf + base, buf + base + fwd_shift, HUGE_N);
	check("memmove forward (dst = src - 3)", MOVED_FWD, ret, buf + base);
	ret = wm_memmove(buf + base + bwd_shift, buf + base, HUGE_N);
	check("memmove backward (dst = src + 4101)", MOVED_BWD, ret, buf + base + bwd_shift);
	ret = wm_memcpy(buf + base + 1, buf + base + 1 + cpy_shift, HUGE_N);
	check("memcpy (dst = src - 8)", COPIED, ret, buf + base + 1);
	ret = wm_memset(buf + base + 2, SET_C, HUGE_N);
	check("memset (dst % 8 = 2)", SET, ret, buf + base + 2);

	printf("%s: huge: %lu bytes checked, %lu wrong\n", wrong ? "FAIL" : "PASS",
	       checked, wrong);
	printf("EXIT: STATUS=%d\n", wrong ? 1 : 0);
	return wrong ? 1 : 0;
}
