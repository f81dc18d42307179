// SPDX-License-Identifier: MIT
/*
 * A correct user's file for make IMPL= / run-qemu.sh --impl (tests.cfg):
 * byte loops, memmove forward through its own memcpy (renamed with it) and
 * backward through a static helper, as a user's code may be written.
 * noinline keeps both calls calls, so the renaming is what they go through.
 */
#include <stddef.h>

__attribute__((noinline)) void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static __attribute__((noinline)) void copy_backward(unsigned char *d, const unsigned char *s,
						    size_t n)
{
	while (n--)
		d[n] = s[n];
}

void *memmove(void *dst, const void *src, size_t n)
{
	if ((const unsigned char *)dst <= (const unsigned char *)src)
		return memcpy(dst, src, n);
	copy_backward(dst, src, n);
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
