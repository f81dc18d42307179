/* SPDX-License-Identifier: MIT */
/*
 * <string.h> for the AArch64 test image: memcpy, memmove and memset are
 * lib's (built with their standard names), the rest libc.c's, for
 * firmware/fdt.c.
 */
#ifndef WM_A64_STRING_H
#define WM_A64_STRING_H

#include <stddef.h>

void *memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strncpy(char *__restrict dst, const char *__restrict src, size_t n);
char *strchr(const char *s, int c);

#endif /* WM_A64_STRING_H */
