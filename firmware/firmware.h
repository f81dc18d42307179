/* SPDX-License-Identifier: MIT */
/* Interfaces between the pieces of the S-mode image (firmware/, boot/). */
#ifndef WM_FIRMWARE_H
#define WM_FIRMWARE_H

#include <stddef.h>
#include <stdint.h>

/* fdt.c: what the image needs from the device tree. */
struct fdt_info {
	char model[64];
	uint64_t mem_base, mem_size;	/* first memory node's first range */
	uint32_t timebase_hz;		/* /cpus timebase-frequency */
	int nharts;			/* enabled cpu@ nodes under /cpus with
					 * an MMU (all enabled ones if none
					 * says mmu-type) */
	int has_finisher;		/* a "sifive,test0" node (QEMU virt) */
	uint64_t finisher;		/* its register address */
	uint64_t pl011;			/* an "arm,pl011" UART's registers, or 0
					 * (the AArch64 test image's console) */
};
/* NULL on success; else why the blob is no usable device tree. */
const char *fdt_scan(const void *fdt, struct fdt_info *info);

/* console.c: picolibc stdout on the SBI console; returns its description. */
const char *console_init(void);
void console_sync(void);

/* platform.c: end the run with a status; QEMU virt exits with it. */
void platform_set_finisher(const struct fdt_info *info);
__attribute__((noreturn)) void platform_exit(int status);
/* The same without flushing the console (trap.c, a trap while reporting). */
__attribute__((noreturn)) void platform_exit_raw(int status);

/*
 * start.c: what every image's fw_main() does first: the console, the device
 * tree (an unusable one ends the run with STATUS_NO_FDT), the finisher, the
 * banner, and the TRAP_SELFTEST traps.  Returns with *fdt filled in.
 */
void fw_start(unsigned long hartid, const void *dtb, struct fdt_info *fdt);
/* The EXIT: STATUS=n line, then platform_exit(status). */
__attribute__((noreturn)) void fw_exit(int status);
/* The image's entry (main.c or bench_main.c, one per image kind). */
__attribute__((noreturn)) void fw_main(unsigned long hartid, const void *dtb);

/* trap.c: run an illegal instruction (make TRAP_SELFTEST=1, 2 or 3; start.c). */
void trap_selftest(void);
/*
 * trap.c: what the run was doing, for the trap report: main.c sets it to
 * the suite's suite_current(), bench.c to the call it is timing.
 */
extern int (*trap_context)(char *buf, size_t size);

/* Exit statuses besides 0 (pass) and 1 (a check failed). */
#define STATUS_TRAP	2	/* an unexpected trap */
#define STATUS_NO_FDT	3	/* an unusable platform: device tree, memory */

#endif /* WM_FIRMWARE_H */
