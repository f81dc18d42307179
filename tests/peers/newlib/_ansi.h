/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for newlib's <_ansi.h>, which libc/string/memmove.c includes and
 * uses nothing of (a host's C library has no such header).
 */
