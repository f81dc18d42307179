// SPDX-License-Identifier: MIT
/*
 * A memset whose length comes from a header beside it (tests.cfg): cfg.h's
 * SHORT 1 makes it one byte short; the object is rebuilt when cfg.h changes.
 */
#include <stddef.h>

#include "cfg.h"

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (n >= SHORT)
		n -= SHORT;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
