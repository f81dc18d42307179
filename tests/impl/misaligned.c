// SPDX-License-Identifier: MIT
/*
 * A user's memcpy that is correct but loads and stores 8-byte words at
 * whatever address it is given: misaligned unless dst and src are (tests.cfg:
 * --impl-must-align names it and fails).  The cast pointers make GCC emit ld
 * and sd, which a U74 traps when the address is not a multiple of 8.
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (; n >= 8; n -= 8, d += 8, s += 8)
		*(uint64_t *)d = *(const uint64_t *)s;
	while (n--)
		*d++ = *s++;
	return dst;
}
