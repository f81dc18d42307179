// SPDX-License-Identifier: MIT
/* A user's memset that stops one byte short (tests.cfg: its FAIL: lines). */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n-- > 1)
		*d++ = (unsigned char)c;
	return dst;
}
