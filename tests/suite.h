/* SPDX-License-Identifier: MIT */
/*
 * The correctness suite: one source, run in the RISC-V image (against
 * picolibc's two builds and the peers) and on every host or cross target
 * (against the target's own C library).  The caller passes the
 * implementation under test and its references; the suite checks each
 * against a byte-by-byte model of the C standard's semantics and prints one
 * PASS:/FAIL: line per group.  A reference's failures are printed as its
 * own (REF-FAILED:, with the cases) and count in no verdict: the result's
 * failures are ours.
 */
#ifndef WM_SUITE_H
#define WM_SUITE_H

#include <stddef.h>

struct suite_impl {
	const char *name;
	void *(*cpy)(void *, const void *, size_t);
	void *(*move)(void *, const void *, size_t);
	void *(*set)(void *, int, size_t);
	int own;	/* besides impls[0]: its failures are ours to report (FAIL:,
			   counted), not a reference's (REF-FAILED:) */
	const char *note;	/* or NULL: said after the groups in PLAN: (a peer
				   whose code is not the known one: docs/peers.md) */
};

/* Counts kept across groups; the caller prints the verdict. */
struct suite_result {
	unsigned long checks;   /* calls checked, every implementation */
	unsigned long failures; /* calls of ours that failed */
	unsigned int groups;
	unsigned int failed_groups;
};

/*
 * Optional hooks the image sets to read its misaligned-trap counters around
 * each group; both may be NULL.  group_end returns the number of failures it
 * found (counted into the result).
 */
struct suite_hooks {
	void (*group_begin)(const char *group, const struct suite_impl *impl);
	unsigned long (*group_end)(const char *group, const struct suite_impl *impl);
};

/*
 * Prints "TARGET: <bits>-bit <endian>" first.  impls[0] is ours; another
 * may lack a function (NULL): its groups are left out (an own one's with a
 * SKIP: line, as the user asked for them).
 */
void suite_run(const struct suite_impl *impls, int nimpls,
	       const struct suite_hooks *hooks, struct suite_result *res);

/*
 * Optional, before suite_run(): [lo, hi) is accessible memory, at least 8 KiB,
 * and the page below lo and the page at hi are not (an access faults).  The
 * suite then also runs calls right against those pages (see suite.c); it
 * overwrites the region.
 */
void suite_set_guard(void *lo, void *hi);

/*
 * The case running now, as "fn[impl] description", for a fault report:
 * writes it to buf and returns 1, or returns 0 outside a case.
 */
int suite_current(char *buf, size_t size);

/* Prints the SUMMARY: line; returns the exit status (0 or 1). */
int suite_summary(const struct suite_result *res);

#endif /* WM_SUITE_H */
