// SPDX-License-Identifier: MIT
/*
 * The start every image kind shares (firmware.h): boot/entry.S calls the
 * image's fw_main() on the boot hart with the stack set up and BSS cleared;
 * fw_main calls fw_start() first.  Each image kind links its own fw_main
 * (the top Makefile picks it): firmware/main.c, the suite image;
 * firmware/bench_main.c, the benchmark image (make BENCH=...).
 */
#include <stdint.h>
#include <stdio.h>

#include "firmware.h"
#include "sbi.h"
#include "protocol.h"

/*
 * The linker's build id note (linker/wordmerge.ld): 4-byte name size,
 * descriptor size and type, the name "GNU\0", then the id's bytes.
 */
extern const unsigned int _build_id_note[], _build_id_note_end[];
extern char _image_start[], _end[];

static void print_build_id(void)
{
	const unsigned int *n = _build_id_note;
	const unsigned char *id = (const unsigned char *)(n + 3) + ((n[0] + 3) & ~3u);
	unsigned int i;

	proto_line(TAG_BANNER, "build-id ");
	for (i = 0; n + 3 <= _build_id_note_end && i < n[1]; i++)
		printf("%02x", id[i]);
	printf("\n");
}

static void banner(unsigned long hartid, const struct fdt_info *fdt,
		   const char *console)
{
	long spec = sbi_get_spec_version();
	long impl = sbi_get_impl_id();
	long ver = sbi_get_impl_version();

	proto_line(TAG_BANNER, "sbi spec %ld.%ld, implementation %s (id %ld) version %ld.%ld\n",
	       (spec >> 24) & 0x7f, spec & 0xffffff, sbi_impl_name(impl), impl,
	       ver >> 16, ver & 0xffff);
	proto_line(TAG_BANNER, "model \"%s\", boot hart %lu of %d harts, timebase %lu Hz\n",
	       fdt->model, hartid, fdt->nharts, (unsigned long)fdt->timebase_hz);
	proto_line(TAG_BANNER, "memory 0x%llx..0x%llx (%llu MiB), console: %s\n",
	       (unsigned long long)fdt->mem_base,
	       (unsigned long long)(fdt->mem_base + fdt->mem_size),
	       (unsigned long long)(fdt->mem_size >> 20), console);
	proto_line(TAG_BANNER, "test finisher %s\n",
	       fdt->has_finisher ? "found (exit status goes to QEMU)"
				 : "none (exit status only in the EXIT: line)");
}

void fw_exit(int status)
{
	proto_exit(status);
	platform_exit(status);
}

void fw_start(unsigned long hartid, const void *dtb, struct fdt_info *fdt)
{
	const char *console = console_init();
	const char *why;

	printf("wordmerge test image: word-at-a-time mem* that never make a misaligned access\n");
	print_build_id();

#if WM_TRAP_SELFTEST == 2
	/* make TRAP_SELFTEST=2: a trap before the device tree is read. */
	trap_selftest();
#endif
	why = fdt_scan(dtb, fdt);
	if (why) {
		proto_line(TAG_FAIL, "%s (a1=%p)\n", why, dtb);
		fw_exit(STATUS_NO_FDT);
	}
	platform_set_finisher(fdt);
	banner(hartid, fdt, console);
	if (!fdt->timebase_hz || !fdt->mem_size) {
		proto_line(TAG_FAIL, "the device tree has no %s\n",
		       !fdt->timebase_hz ? "/cpus timebase-frequency" : "memory node");
		fw_exit(STATUS_NO_FDT);
	}
	/* The image runs where it was linked: that must be RAM the tree names. */
	if ((uintptr_t)_image_start < fdt->mem_base ||
	    (uintptr_t)_end > fdt->mem_base + fdt->mem_size) {
		proto_line(TAG_FAIL, "the image at 0x%lx..0x%lx lies outside the memory the device tree gives\n",
		       (unsigned long)(uintptr_t)_image_start, (unsigned long)(uintptr_t)_end);
		fw_exit(STATUS_NO_FDT);
	}
#if WM_TRAP_SELFTEST == 1 || WM_TRAP_SELFTEST == 3
	/*
	 * make TRAP_SELFTEST=1 (tests/tests.cfg: qemu-trap): the trap report, end to end;
	 * =3: and the report itself traps (trap.c).
	 */
	trap_selftest();
#endif
}
