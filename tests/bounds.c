// SPDX-License-Identifier: MIT
/*
 * Host test: wordmerge never reads a source word that lies wholly outside
 * [src, src + n).  Each source is placed so that the aligned words
 * overlapping [src, src + n) end exactly at a PROT_NONE page, and again so
 * that they start right after one: a word read wholly outside the range
 * falls in that page and faults, in any build (tests/tests.cfg runs it
 * plain at -O2, for -m32, and under AddressSanitizer).  The fault is
 * reported with the call that made it.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sigaction under -std=c11 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/wordmerge.h"

#define W sizeof(unsigned long)
#define MAXLEN 200

static size_t round_up(size_t x) { return (x + W - 1) / W * W; }

/* [lo, hi) accessible, the pages below and at hi PROT_NONE. */
static unsigned char *lo, *hi;

/* The call running, for the fault report. */
static struct {
	const char *fn, *where;
	size_t soff, doff, n;
} now;

static void bounds_fault(int sig, siginfo_t *si, void *uc)
{
	char line[256];
	int k;

	(void)sig;
	(void)uc;
	k = snprintf(line, sizeof(line),
		     "FAIL: bounds: SIGSEGV at %p during %s src_off=%lu dst_off=%lu n=%lu, "
		     "source words %s a PROT_NONE page\n",
		     si->si_addr, now.fn, (unsigned long)now.soff,
		     (unsigned long)now.doff, (unsigned long)now.n, now.where);
	if (k > 0 && write(1, line, (size_t)k < sizeof(line) ? (size_t)k : sizeof(line) - 1) < 0)
		_exit(1);
	_exit(1);
}

static void guard_setup(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;
	unsigned char *m;
	struct sigaction sa;

	m = mmap(NULL, 3 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + pg, pg, PROT_READ | PROT_WRITE) != 0) {
		printf("FAIL: bounds: cannot map guard pages\n");
		exit(1);
	}
	lo = m + pg;
	hi = m + 2 * pg;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = bounds_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* The block of span bytes: ending at the upper guard page, or starting at the lower. */
static unsigned char *place(int top, size_t span)
{
	now.where = top ? "end at" : "start right after";
	return top ? hi - span : lo;
}

int main(void)
{
	static unsigned char dst[MAXLEN + 2 * W];
	unsigned long cases = 0, fails = 0;
	size_t soff, doff, n, i;
	int back, top;

	guard_setup();
	for (top = 0; top < 2; top++)
		for (soff = 0; soff < W; soff++)
			for (doff = 0; doff < W; doff++)
				for (n = 1; n <= MAXLEN; n++) {
					unsigned char *src = place(top, round_up(soff + n)) + soff;

					for (i = 0; i < n; i++)
						src[i] = (unsigned char)(i * 7 + n);
					now.soff = soff;
					now.doff = doff;
					now.n = n;
					now.fn = "memcpy";
					wm_memcpy(dst + doff, src, n);
					fails += memcmp(dst + doff, src, n) != 0;
					now.fn = "memmove";
					wm_memmove(dst + doff, src, n);
					fails += memcmp(dst + doff, src, n) != 0;
					cases += 2;
				}
	/*
	 * Overlapping memmove, forward (dst below src) and backward (dst above
	 * src): one block of exactly the words of both.
	 */
	for (top = 0; top < 2; top++)
		for (back = 0; back < 2; back++)
			for (soff = 0; soff < W; soff++)
				for (doff = 1; doff < 3 * W; doff++)
					for (n = doff + 1; n <= MAXLEN; n++) {
						unsigned char *blk = place(top, round_up(soff + doff + n));
						unsigned char *base = blk + soff;
						unsigned char *src = back ? base : base + doff;
						unsigned char *dstp = back ? base + doff : base;
						unsigned char ref[MAXLEN];

						for (i = 0; i < n; i++)
							ref[i] = src[i] = (unsigned char)(i * 5 + n + back);
						now.fn = back ? "memmove (backward, overlapping)"
							      : "memmove (forward, overlapping)";
						now.soff = (size_t)(src - blk);
						now.doff = (size_t)(dstp - blk);
						now.n = n;
						wm_memmove(dstp, src, n);
						fails += memcmp(dstp, ref, n) != 0;
						cases++;
					}
	printf("%s: bounds: %lu calls against PROT_NONE pages, "
	       "no source word read outside its range, %lu wrong results\n",
	       fails ? "FAIL" : "PASS", cases, fails);
	return fails != 0;
}
