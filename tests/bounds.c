// SPDX-License-Identifier: MIT
/*
 * Host test, under AddressSanitizer: wordmerge never reads a source word that
 * lies wholly outside [src, src + n).  Each source lives alone in a heap
 * block that spans exactly the aligned words overlapping [src, src + n), so
 * a word read wholly outside the range is outside the block and ASan stops
 * the run.  (The shared suite cannot check this: its buffers are large.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/wordmerge.h"

#define W sizeof(unsigned long)
#define MAXLEN 200

static size_t round_up(size_t x) { return (x + W - 1) / W * W; }

int main(void)
{
	static unsigned char dst[MAXLEN + 2 * W];
	unsigned long cases = 0, fails = 0;
	size_t soff, doff, n, i;
	int back;

	for (soff = 0; soff < W; soff++)
		for (doff = 0; doff < W; doff++)
			for (n = 1; n <= MAXLEN; n++) {
				size_t span = round_up(soff + n);
				unsigned char *blk = aligned_alloc(W, span);
				unsigned char *src = blk + soff;

				for (i = 0; i < n; i++)
					src[i] = (unsigned char)(i * 7 + n);
				wm_memcpy(dst + doff, src, n);
				fails += memcmp(dst + doff, src, n) != 0;
				wm_memmove(dst + doff, src, n);
				fails += memcmp(dst + doff, src, n) != 0;
				free(blk);
				cases += 2;
			}
	/*
	 * Overlapping memmove, forward (dst below src) and backward (dst above
	 * src): one block of exactly the words of both.
	 */
	for (back = 0; back < 2; back++)
		for (soff = 0; soff < W; soff++)
			for (doff = 1; doff < 3 * W; doff++)
				for (n = doff + 1; n <= MAXLEN; n++) {
					size_t span = round_up(soff + doff + n);
					unsigned char *blk = aligned_alloc(W, span);
					unsigned char *lo = blk + soff;
					unsigned char *src = back ? lo : lo + doff;
					unsigned char *dstp = back ? lo + doff : lo;
					unsigned char ref[MAXLEN];

					for (i = 0; i < n; i++)
						ref[i] = src[i] = (unsigned char)(i * 5 + n + back);
					wm_memmove(dstp, src, n);
					fails += memcmp(dstp, ref, n) != 0;
					free(blk);
					cases++;
				}
	printf("%s: bounds: %lu calls, no source word read outside its range, %lu wrong results\n",
	       fails ? "FAIL" : "PASS", cases, fails);
	return fails != 0;
}
