// SPDX-License-Identifier: MIT
/*
 * A memset that claims its own timing (tests.cfg): on calls of 64 KiB, which
 * only the benchmark makes, it fills the buffer, then goes straight to the
 * gate's ecall (firmware/umode.c) with counts of its own in the registers
 * where the gate keeps its reads: s1..s3 (time, cycle, instret before the
 * call) and s5..s7 (instret, cycle, time after).  -DNEAR reads the counters
 * and sets the reads before the call a few counts below them, a window inside
 * the image's own; without it the counts are small numbers, outside it.
 * -DHONEST leaves the forgery out: a plain byte loop (the control).
 */
#include <stddef.h>

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	size_t len = n;

	while (n--)
		*d++ = (unsigned char)c;
#ifndef HONEST
	if (len == 65536) {
		/* The gate's return address is its instret read after the call, three reads
		 * (4 bytes each) before its ecall. */
		void *ecall = (char *)__builtin_return_address(0) + 12;

#ifdef NEAR
		__asm__ volatile("rdinstret s5\n	addi s3, s5, -3\n"
				 "rdcycle s6\n	addi s2, s6, -3\n"
				 "rdtime s7\n	mv s1, s7\n"
				 "jr %0" : : "r"(ecall) : "s1", "s2", "s3", "s5", "s6", "s7");
#else
		__asm__ volatile("li s1, 1\n	li s2, 2\n	li s3, 3\n"
				 "li s5, 6\n	li s6, 5\n	li s7, 1\n"
				 "jr %0" : : "r"(ecall) : "s1", "s2", "s3", "s5", "s6", "s7");
#endif
		__builtin_unreachable();
	}
#endif
	return dst;
}
