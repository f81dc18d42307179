// SPDX-License-Identifier: MIT
/*
 * The correctness suite on a hosted target (the build machine, or a cross
 * target under qemu-user): wordmerge's wm_* functions, with the target's own
 * C library as the reference.  Exit status 0 only if every group passed.
 *
 * On POSIX targets the suite gets a guard region: two pages between two
 * PROT_NONE pages (mmap), so that a read or write past a buffer placed
 * against them faults in any build.  A fault is reported with the case that
 * was running, and fails the run.
 */
#if defined(__unix__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sigaction under -std=c11 */
#endif
#include <stdio.h>
#include <string.h>

#include "../firmware/protocol.h"
#include "../lib/wordmerge.h"
#include "suite.h"

#if defined(__unix__)
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void host_fault(int sig, siginfo_t *si, void *uc)
{
	static char line[256];
	int k;

	(void)uc;
	k = snprintf(line, sizeof(line), "\n" TAG_FAIL ": %s at address %p during ",
		     sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", si->si_addr);
	if (k < 0 || (size_t)k >= sizeof(line) ||
	    !suite_current(line + k, sizeof(line) - (size_t)k))
		snprintf(line + (k > 0 ? k : 0), sizeof(line) - (size_t)(k > 0 ? k : 0),
			 "no case (outside the suite's calls)");
	k = (int)strlen(line);
	if (k < (int)sizeof(line) - 1)
		line[k++] = '\n';
	if (write(1, line, (size_t)k) < 0 ||
	    write(1, TAG_EXIT ": STATUS=2\n", sizeof(TAG_EXIT ": STATUS=2\n") - 1) < 0)
		_exit(2);
	_exit(2);
}

/* Two pages between PROT_NONE pages; stays NULL (no guard) if mmap fails. */
static void host_guard(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096, span;
	unsigned char *m;
	struct sigaction sa;

	span = pg < 4096 ? 8192 : 2 * pg;
	m = mmap(NULL, span + 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + pg, span, PROT_READ | PROT_WRITE) != 0) {
		printf("NOTE: could not map guard pages\n");
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = host_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	suite_set_guard(m + pg, m + pg + span);
}
#else
static void host_guard(void) {}
#endif

#ifdef WM_HOST_PEERS
/* The peers' C, built from Debian's source packages (make host HOST_PEERS=1:
   tests/peers.mk, tests/build.mk); newlib's riscv memset is assembly. */
void *glibc_memcpy(void *, const void *, size_t);
void *glibc_memmove(void *, const void *, size_t);
void *glibc_memset(void *, int, size_t);
void *newlib_memcpy(void *, const void *, size_t);
void *newlib_memmove(void *, const void *, size_t);
#endif

int main(void)
{
	static const struct suite_impl impls[] = {
		{ "wordmerge", wm_memcpy, wm_memmove, wm_memset, 1, NULL },
		{ "libc", memcpy, memmove, memset, 0, NULL },
#ifdef WM_HOST_PEERS
		{ "glibc-generic", glibc_memcpy, glibc_memmove, glibc_memset, 0, NULL },
		{ "newlib", newlib_memcpy, newlib_memmove, NULL, 0, NULL },
#endif
	};
	struct suite_result res = { 0, 0, 0, 0 };
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	host_guard();
	suite_run(impls, (int)(sizeof(impls) / sizeof(impls[0])), NULL, &res);
	status = suite_summary(&res);
	proto_line(TAG_EXIT, "STATUS=%d\n", status);
	return status;
}
