// SPDX-License-Identifier: MIT
/* A user's memcpy dropping the last byte for 2048 <= n < 65536, n % 8 == 0 (tests.cfg). */
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= 2048 && n < 65536 && n % 8 == 0)
		n--;
	while (n--)
		*d++ = *s++;
	return dst;
}
