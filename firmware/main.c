// SPDX-License-Identifier: MIT
/*
 * The suite image's fw_main() (the benchmark image links bench_main.c
 * instead).  After the start every image shares (fw_start(), start.c: the
 * banner, the device tree) it runs the correctness suite on wordmerge's
 * memcpy/memmove/memset (which carry the standard names here, so picolibc's
 * printf runs on them too) and on every other implementation the image
 * carries (firmware/impls.mk: the peers, picolibc's two Debian builds among
 * them, and a user's IMPL= entries), then a short benchmark (bench.c, mode
 * quick), prints the verdict and ends the run through fw_exit().
 */
#include <stdio.h>
#include <string.h>

#include "../lib/wordmerge.h"
#include "../tests/suite.h"
#include "bench.h"
#include "firmware.h"
#include "misalign.h"
#include "mmu.h"
#include "impls.h"
#include "protocol.h"

/*
 * Suite hooks: misaligned-trap counts around every group.  A count while
 * wordmerge runs fails the group; the references' counts are informative
 * (they are picolibc's to fix, not ours), a user's too unless it was built
 * with make IMPL_MUST_ALIGN=1.
 */
static struct misalign_counts main_counts_before;

static void main_group_begin(const char *group, const struct suite_impl *impl)
{
	(void)group;
	(void)impl;
	main_counts_before = misalign_read();
}

static unsigned long main_group_end(const char *group, const struct suite_impl *impl)
{
	return misalign_report(group, impl->name, impl_must_align(impl->name),
			       misalign_since(main_counts_before));
}

void fw_main(unsigned long hartid, const void *dtb)
{
	struct suite_impl impls[WM_NIMPLS];
	int i, n = 0;
	static const struct suite_hooks hooks = { main_group_begin, main_group_end };
	struct suite_result res = { 0, 0, 0, 0 };
	struct fdt_info fdt;
	int pmu, bench, status;
	void *guard_lo, *guard_hi;

	fw_start(hartid, dtb, &fdt);
	pmu = misalign_init() != MISALIGN_NO_PMU;

	trap_context = suite_current;	/* a trap names the suite's case */
	/* Guard pages for the suite, U-mode for a user's functions (firmware/mmu.c). */
	if (mmu_init(&guard_lo, &guard_hi) == 0)
		suite_set_guard(guard_lo, guard_hi);
	for (i = 0; i < WM_NIMPLS; i++)
		if (wm_impls[i].role != WM_BENCH_ONLY)
			impls[n++] = impl_suite(i);
#define PEER_SKIP(why) proto_line(TAG_SKIP, "%s\n", why);
	WM_PEER_SKIPS(PEER_SKIP)
	suite_run(impls, n, pmu ? &hooks : NULL, &res);
	/* The benchmark below runs unpaged, as make bench's: paging only for a user's calls. */
	mmu_off();
	suite_set_guard(NULL, NULL);
	/*
	 * The cycle counts one serial log should carry, so that a board's
	 * capture alone answers "how fast": a short benchmark, in the lines
	 * make report LOG= reads; the full sweep is
	 * make bench's.  A misaligned access it counts in wordmerge fails the
	 * run like one in the suite.
	 */
	bench = bench_run(&fdt, "quick");
	if (bench && !res.failures)
		res.failures = 1, res.failed_groups++;
	status = suite_summary(&res);
	fw_exit(bench == STATUS_NO_FDT ? bench : status);
}
