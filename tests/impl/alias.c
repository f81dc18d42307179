// SPDX-License-Identifier: MIT
/* A user's memcpy under three names, one function (tests.cfg): its code size is
 * counted once. */
#include <stddef.h>

void *my_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n) __attribute__((alias("my_copy")));
void *memcpy2(void *dst, const void *src, size_t n) __attribute__((alias("my_copy")));
