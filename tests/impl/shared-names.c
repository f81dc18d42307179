// SPDX-License-Identifier: MIT
/*
 * A file given twice under two names, one of which is the other's plus "_b"
 * (tests.cfg): its global counter and its global helper b_memcpy must stay
 * its own in each copy, and a's b_memcpy must not meet a_b's memcpy.
 */
#include <stddef.h>

unsigned long calls;

void *b_memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	calls++;
	return b_memcpy(dst, src, n);
}
