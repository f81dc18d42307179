// SPDX-License-Identifier: MIT
/* A user's memcpy that skips storing aligned all-zero source words (tests.cfg). */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (; n && (uintptr_t)d % 8; n--)
		*d++ = *s++;
	if ((uintptr_t)s % 8 == 0)
		for (; n >= 8; n -= 8, d += 8, s += 8) {
			uint64_t w = *(const uint64_t *)s;

			if (w)
				*(uint64_t *)d = w;
		}
	while (n--)
		*d++ = *s++;
	return dst;
}
