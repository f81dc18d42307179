// SPDX-License-Identifier: MIT
/*
 * A user's memmove copying forward when dst lies 130 or more above src and n > 256, as if
 * so far a dst were disjoint: wrong whenever the overlap is longer (tests.cfg).
 */
#include <stddef.h>

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || (size_t)(d - s) >= n || (n > 256 && (size_t)(d - s) >= 130))
		while (n--)
			*d++ = *s++;
	else
		while (n--)
			d[n] = s[n];
	return dst;
}
