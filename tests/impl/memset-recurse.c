// SPDX-License-Identifier: MIT
/*
 * A user's memset that calls itself without end (tests.cfg: impl-recurse):
 * its stack runs into the guard page below the image's stack.  The call is
 * not a tail call (the byte stored after it), so that each level takes a frame.
 */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	volatile unsigned char frame[32];

	frame[0] = (unsigned char)c;
	memset(dst, c, n);
	((unsigned char *)dst)[0] = frame[0];
	return dst;
}
