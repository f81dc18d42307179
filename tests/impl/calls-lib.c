// SPDX-License-Identifier: MIT
/*
 * A memcpy that leaves its large copies to a memmove it does not define
 * (tests.cfg): refused, since the image's memmove is out of U-mode's reach.
 * -DOWN defines that memmove too (the control).
 */
#include <stddef.h>

void *memmove(void *dst, const void *src, size_t n);

#ifdef OWN
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s)
		while (n--)
			*d++ = *s++;
	else
		while (n--)
			d[n] = s[n];
	return dst;
}
#endif

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n > 256)
		return memmove(dst, src, n);
	while (n--)
		*d++ = *s++;
	return dst;
}
