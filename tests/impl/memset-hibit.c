// SPDX-License-Identifier: MIT
/* A user's memset storing c | 0x80 for every c but 0: wrong for c 1..0x7f (tests.cfg). */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst, v = (unsigned char)c;

	if (v)
		v |= 0x80;
	while (n--)
		*d++ = v;
	return dst;
}
