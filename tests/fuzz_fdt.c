// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the image's device tree reader (firmware/fdt.c),
 * built for the host with AddressSanitizer and UndefinedBehaviorSanitizer
 * (tests/build.mk: make fuzz; tests/tests.cfg: fdt-fuzz, a bounded run).
 *
 * The reader's contract: the blob is totalsize bytes long (its header says
 * so; in the image it is whatever RAM holds there).  An input is therefore
 * copied into a heap block of exactly its own size, and inputs whose header
 * claims more than that are skipped: every byte the reader may read lies
 * in the block, and ASan stops the run on any read outside it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../firmware/firmware.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdt_info info;
	unsigned char *blob;
	uint32_t total;

	if (size < 8)
		return 0;
	total = (uint32_t)data[4] << 24 | (uint32_t)data[5] << 16 |
		(uint32_t)data[6] << 8 | data[7];
	if (total < 40 || total > size)
		return 0;
	blob = malloc(total);	/* malloc's alignment suits the reader's */
	if (!blob)
		return 0;
	memcpy(blob, data, total);
	(void)fdt_scan(blob, &info);
	free(blob);
	return 0;
}
