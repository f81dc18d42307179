// SPDX-License-Identifier: MIT
/* A user's memcpy dropping the last byte for n >= 4096 at dst - src == 2 mod 8 (tests.cfg). */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= 4096 && ((uintptr_t)d - (uintptr_t)s) % 8 == 2)
		n--;
	while (n--)
		*d++ = *s++;
	return dst;
}
