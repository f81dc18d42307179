// SPDX-License-Identifier: MIT
/*
 * A memset that reads the image's memory (tests.cfg): the word at PEEK, an
 * address of the image's the test finds in a first build (the seal's CRC,
 * protocol.c), on every call, or -DBENCH on calls of 64 KiB alone, which only
 * the benchmark makes.  Without PEEK: a plain byte loop (the control).
 */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

#ifdef PEEK
#ifdef BENCH
	if (n == 65536)
#endif
		c ^= (int)*(volatile unsigned long *)PEEK;
#endif
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
