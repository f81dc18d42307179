// SPDX-License-Identifier: MIT
/*
 * A correct memset that counts its calls in a thread-local variable
 * (tests.cfg): the link keeps a user's .tdata and .tbss in the image's TLS
 * block, where tp finds them, not in the user's own section.  -DPLAIN makes
 * the counter an ordinary static one (the control).
 */
#include <stddef.h>

#ifdef PLAIN
static int calls;
#else
static __thread int calls;
#endif

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	calls++;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
