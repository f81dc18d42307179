// SPDX-License-Identifier: MIT
/*
 * The C library the AArch64 test image needs, and no more: printf's family
 * for the conversions the suite and firmware/protocol.c use (%d %i %u %x %s
 * %c %p %%, the flags + and 0, a width, the sizes l, ll and z), and the
 * string functions of firmware/fdt.c.  Written here because Debian's
 * picolibc for AArch64 (picolibc-aarch64-linux-gnu) is a little-endian
 * build only, and this image is built big-endian too.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* main.c: one byte to the console. */
void a64_putc(char c);

/* Where a format writes: buf[0..size-1] (NULL: the console); len counts every byte. */
struct a64_out {
	char *buf;
	size_t size, len;
};

static void out_c(struct a64_out *o, char c)
{
	if (!o->buf)
		a64_putc(c);
	else if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_pad(struct a64_out *o, char c, int n)
{
	while (n-- > 0)
		out_c(o, c);
}

static void format(struct a64_out *o, const char *f, va_list ap)
{
	for (; *f; f++) {
		char digits[24], sign = 0;
		const char *s = digits, *prefix = "";
		unsigned long long v = 0;
		int width = 0, zero = 0, plus = 0, size = 0, base = 10, len;

		if (*f != '%') {
			out_c(o, *f);
			continue;
		}
		for (f++; *f == '+' || *f == '0'; f++) {
			plus |= *f == '+';
			zero |= *f == '0';
		}
		for (; *f >= '0' && *f <= '9'; f++)
			width = width * 10 + (*f - '0');
		for (; *f == 'l' || *f == 'z'; f++)
			size += *f == 'l' ? 1 : 2;	/* z: size_t, an unsigned long here */
		switch (*f) {
		case 'd':
		case 'i': {
			long long x = size > 1 ? va_arg(ap, long long) :
				      size ? va_arg(ap, long) : va_arg(ap, int);

			v = x < 0 ? -(unsigned long long)x : (unsigned long long)x;
			sign = x < 0 ? '-' : plus ? '+' : 0;
			break;
		}
		case 'x':
		case 'p':
			base = 16;
			/* fall through */
		case 'u':
			v = *f == 'p' ? (uintptr_t)va_arg(ap, void *) :
			    size > 1 ? va_arg(ap, unsigned long long) :
			    size ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			prefix = *f == 'p' ? "0x" : "";
			break;
		case 's':
			s = va_arg(ap, const char *);
			s = s ? s : "(null)";
			break;
		case 'c':
			digits[0] = (char)va_arg(ap, int);
			digits[1] = 0;
			break;
		default:	/* %% and anything unknown: the character itself */
			digits[0] = *f ? *f : '%';
			digits[1] = 0;
			f -= !*f;
			break;
		}
		if (strchr("diuxp", *f) && *f) {
			char *p = digits + sizeof(digits) - 1;

			*p = 0;
			do
				*--p = "0123456789abcdef"[v % (unsigned)base];
			while (v /= (unsigned)base);
			s = p;
		}
		len = (int)strlen(s) + (sign != 0) + (int)strlen(prefix);
		if (!zero)
			out_pad(o, ' ', width - len);
		if (sign)
			out_c(o, sign);
		for (; *prefix; prefix++)
			out_c(o, *prefix);
		if (zero)
			out_pad(o, '0', width - len);
		for (; *s; s++)
			out_c(o, *s);
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct a64_out o = { buf, size, 0 };

	if (!buf)	/* nothing is written, only counted */
		o.buf = (char *)"", o.size = 0;
	format(&o, fmt, ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	struct a64_out o = { NULL, 0, 0 };

	format(&o, fmt, ap);
	return (int)o.len;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

char *strncpy(char *__restrict dst, const char *__restrict src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}
