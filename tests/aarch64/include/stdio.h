/* SPDX-License-Identifier: MIT */
/*
 * The few <stdio.h> functions that the suite and firmware/protocol.c call,
 * for the AArch64 test image, which has no C library: libc.c has them.
 */
#ifndef WM_A64_STDIO_H
#define WM_A64_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif /* WM_A64_STDIO_H */
