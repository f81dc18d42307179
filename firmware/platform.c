// SPDX-License-Identifier: MIT
/*
 * Ending the run.  On QEMU virt the "sifive,test0" finisher device (address
 * from the device tree) makes QEMU exit with our status: 0x5555 = pass,
 * (status << 16) | 0x3333 = fail with that exit code.  OpenSBI's SRST shutdown
 * cannot report a failure to QEMU, so it is only the fallback for machines
 * without a finisher (sifive_u, real boards), where run-qemu.sh reads the
 * status from the EXIT: line instead.  Until the device tree has been read,
 * the platform's build-time address (the Makefile's finisher_PLATFORM, 0 for
 * none) stands in, so that an exit before that point (an unusable tree, an
 * early trap) still reaches QEMU.
 */
#include <stdio.h>

#include "firmware.h"
#include "sbi.h"

#define FINISHER_PASS 0x5555
#define FINISHER_FAIL 0x3333

#ifndef WM_FALLBACK_FINISHER
#define WM_FALLBACK_FINISHER 0
#endif

static volatile uint32_t *platform_finisher =
	(volatile uint32_t *)(uintptr_t)WM_FALLBACK_FINISHER;

/* Once the tree is read it is the truth: its finisher, or none. */
void platform_set_finisher(const struct fdt_info *info)
{
	platform_finisher = info->has_finisher
		? (volatile uint32_t *)(uintptr_t)info->finisher : NULL;
}

void platform_exit(int status)
{
	console_sync();
	platform_exit_raw(status);
}

/* The exit without the console: for a trap inside the trap report. */
void platform_exit_raw(int status)
{
	if (platform_finisher)
		*platform_finisher = status ? (uint32_t)status << 16 | FINISHER_FAIL
					    : FINISHER_PASS;
	if (sbi_probe_extension(SBI_EXT_SRST))
		sbi_system_reset(0, status ? 1 : 0);
	sbi_legacy_shutdown();
	for (;;)
		__asm__ volatile("wfi");
}
