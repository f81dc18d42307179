// SPDX-License-Identifier: MIT
/*
 * The image's device tree reader (firmware/fdt.c) on the host, on a blob
 * from a file: prints what it found, one line, for tests/tests.cfg to compare
 * with what QEMU's trees hold (the fdt-* tests).
 *
 *     fdt_host FILE.dtb
 */
#include <stdio.h>
#include <stdlib.h>

#include "../firmware/firmware.h"

int main(int argc, char **argv)
{
	static unsigned char blob[1 << 21] __attribute__((aligned(8)));
	struct fdt_info info;
	const char *why;
	size_t n;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: fdt_host FILE.dtb (a readable device tree blob)\n");
		return 2;
	}
	n = fread(blob, 1, sizeof(blob), f);
	fclose(f);
	if (n == 0 || n == sizeof(blob)) {
		fprintf(stderr, "fdt_host: %s is empty or larger than %zu bytes\n", argv[1],
			sizeof(blob) - 1);
		return 2;
	}
	why = fdt_scan(blob, &info);
	if (why) {
		printf("refused: %s\n", why);
		return 1;
	}
	printf("model \"%s\" harts %d timebase %lu memory 0x%llx+0x%llx finisher %s0x%llx\n",
	       info.model, info.nharts, (unsigned long)info.timebase_hz,
	       (unsigned long long)info.mem_base, (unsigned long long)info.mem_size,
	       info.has_finisher ? "" : "none ", (unsigned long long)info.finisher);
	return 0;
}
