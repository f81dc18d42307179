// SPDX-License-Identifier: MIT
/*
 * The benchmark's data lines (protocol.h): each record is formatted into a
 * buffer first, so that the CRC covers exactly the bytes sent.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "protocol.h"

static unsigned long proto_lines;
static uint32_t proto_crc = 0xffffffffu;

/* CRC-32 (IEEE, as zlib's crc32()), bit by bit: a few lines a second need no table. */
static void proto_crc_add(const char *s)
{
	int k;

	for (; *s; s++) {
		proto_crc ^= (unsigned char)*s;
		for (k = 0; k < 8; k++)
			proto_crc = (proto_crc >> 1) ^ (0xedb88320u & -(proto_crc & 1));
	}
}

void proto_csv(const char *fmt, ...)
{
	char line[640] = "CSV:";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line + 4, sizeof(line) - 4, fmt, ap);
	va_end(ap);
	proto_crc_add(line);
	proto_crc_add("\n");
	proto_lines++;
	printf("%s\n", line);
}

/*
 * CSV:end,<lines>,<crc>: the records after begin up to this one, and the
 * CRC-32 of every CSV line from begin on, each with its newline; then a new
 * block may begin.
 */
void proto_end(void)
{
	unsigned long n = proto_lines - 1;	/* begin is not counted */
	uint32_t crc = ~proto_crc;

	proto_lines = 0;
	proto_crc = 0xffffffffu;
	printf("CSV:end,%lu,%08lx\n", n, (unsigned long)crc);
}
