// SPDX-License-Identifier: MIT
/*
 * Linux's convention (tests.cfg): a correct __memcpy and memcpy a weak alias
 * of it; the run checks memcpy, that is __memcpy's code, and passes.
 */
#include <stddef.h>

void *__memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n) __attribute__((weak, alias("__memcpy")));
