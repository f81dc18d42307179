// SPDX-License-Identifier: MIT
/* A user's file that does not compile (tests.cfg: the compiler's message). */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	return dst c n;
}
