// SPDX-License-Identifier: MIT
/*
 * A memcpy that returns without copying, beside a correct global __memcpy
 * (tests.cfg): the run checks and measures memcpy, the name the user gave,
 * and fails; __memcpy is the file's own helper.
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

void *memcpy(void *dst, const void *src, size_t n)
{
	(void)src;
	(void)n;
	return dst;
}
