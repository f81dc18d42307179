// SPDX-License-Identifier: MIT
/* A user's memset one byte short for 258 <= n <= 1024 alone (tests.cfg). */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (n >= 258 && n <= 1024)
		n--;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
