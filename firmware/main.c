// SPDX-License-Identifier: MIT
/*
 * The S-mode test image: boot/entry.S calls fw_main() on the boot hart with
 * the stack set up and BSS cleared.  It prints the banner, runs the
 * correctness suite on wordmerge's memcpy/memmove/memset (which carry the
 * standard names here, so picolibc's printf runs on them too) and on
 * picolibc's own functions from both of Debian's builds, prints the verdict
 * and ends the run through platform_exit().
 */
#include <stdio.h>
#include <string.h>

#include "../lib/wordmerge.h"
#include "../tests/suite.h"
#include "bench.h"
#include "firmware.h"
#include "misalign.h"
#include "mmu.h"
#include "refs.h"
#include "sbi.h"

static void banner(unsigned long hartid, const struct fdt_info *fdt,
		   const char *console)
{
	long spec = sbi_get_spec_version();
	long impl = sbi_get_impl_id();
	long ver = sbi_get_impl_version();

	printf("wordmerge test image: word-at-a-time mem* that never make a misaligned access\n");
	printf("BANNER: sbi spec %ld.%ld, implementation %s (id %ld) version %ld.%ld\n",
	       (spec >> 24) & 0x7f, spec & 0xffffff, sbi_impl_name(impl), impl,
	       ver >> 16, ver & 0xffff);
	printf("BANNER: model \"%s\", boot hart %lu of %d harts, timebase %lu Hz\n",
	       fdt->model, hartid, fdt->nharts, (unsigned long)fdt->timebase_hz);
	printf("BANNER: memory 0x%llx..0x%llx (%llu MiB), console: %s\n",
	       (unsigned long long)fdt->mem_base,
	       (unsigned long long)(fdt->mem_base + fdt->mem_size),
	       (unsigned long long)(fdt->mem_size >> 20), console);
	printf("BANNER: test finisher %s\n",
	       fdt->has_finisher ? "found (exit status goes to QEMU)"
				 : "none (exit status only in the EXIT: line)");
}

/*
 * Suite hooks: misaligned-trap counts around every group.  A count while
 * wordmerge runs fails the group; the references' counts are informative
 * (they are picolibc's to fix, not ours).
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
	return misalign_report(group, impl->name, strcmp(impl->name, "wordmerge") == 0,
			       misalign_since(main_counts_before));
}

__attribute__((noreturn)) void fw_main(unsigned long hartid, const void *dtb);

void fw_main(unsigned long hartid, const void *dtb)
{
	static const struct suite_impl impls[] = {
		{ "wordmerge", memcpy, memmove, memset },
		{ "picolibc-size", picolibc_size_memcpy, picolibc_size_memmove,
		  picolibc_size_memset },
		{ "picolibc-speed", picolibc_speed_memcpy, picolibc_speed_memmove,
		  picolibc_speed_memset },
	};
	struct suite_result res = { 0, 0, 0, 0 };
	struct fdt_info fdt;
	const char *console = console_init();
	const char *why;
	int status;

#if WM_TRAP_SELFTEST == 2
	/* make TRAP_SELFTEST=2: a trap before the device tree is read. */
	trap_selftest();
#endif
	why = fdt_scan(dtb, &fdt);
	if (why) {
		printf("FAIL: %s (a1=%p)\n", why, dtb);
		printf("EXIT: STATUS=%d\n", STATUS_NO_FDT);
		platform_exit(STATUS_NO_FDT);
	}
	platform_set_finisher(&fdt);
	banner(hartid, &fdt, console);
	if (!fdt.timebase_hz || !fdt.mem_size) {
		printf("FAIL: the device tree has no %s\n",
		       !fdt.timebase_hz ? "/cpus timebase-frequency" : "memory node");
		printf("EXIT: STATUS=%d\n", STATUS_NO_FDT);
		platform_exit(STATUS_NO_FDT);
	}

#if WM_TRAP_SELFTEST == 1 || WM_TRAP_SELFTEST == 3
	/*
	 * make TRAP_SELFTEST=1 (tests/qemu.mk): the trap report, end to end;
	 * =3: and the report itself traps (trap.c).
	 */
	trap_selftest();
#endif
#ifdef WM_BENCH
	/* The benchmark image (make BENCH=..., tests/bench.mk): no suite. */
	status = bench_run(&fdt, WM_BENCH);
	printf("EXIT: STATUS=%d\n", status);
	platform_exit(status);
#endif
	static const struct suite_hooks hooks = { main_group_begin, main_group_end };
	int pmu = misalign_init() != MISALIGN_NO_PMU;

	mmu_init();	/* guard pages for the suite (firmware/mmu.c) */
	suite_run(impls, sizeof(impls) / sizeof(impls[0]), pmu ? &hooks : NULL, &res);
	mmu_off();	/* the benchmark below runs unpaged, as make bench's */
	/*
	 * The cycle counts one serial log should carry (issue 9): a short
	 * benchmark, in the lines make report LOG= reads; the full sweep is
	 * make bench's.  A misaligned access it counts in wordmerge fails the
	 * run like one in the suite.
	 */
	if (bench_run(&fdt, "quick") && !res.failures)
		res.failures = 1, res.failed_groups++;
	status = suite_summary(&res);
	printf("EXIT: STATUS=%d\n", status);
	platform_exit(status);
}
