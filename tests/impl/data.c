// SPDX-License-Identifier: MIT
/* A user's file whose memcpy is data, beside a real memset (tests.cfg): refused,
 * or the image would run the data as code. */
#include <stddef.h>

int memcpy = 42;

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
