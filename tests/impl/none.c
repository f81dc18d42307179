// SPDX-License-Identifier: MIT
/* A user's file that defines none of the three (tests.cfg). */
#include <stddef.h>

void *my_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
