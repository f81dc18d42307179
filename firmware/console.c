// SPDX-License-Identifier: MIT
/*
 * picolibc's stdout on the SBI console.  printf formats through picolibc's
 * tinystdio and ends up in console_putc(): a line at a time through the SBI
 * Debug Console extension where the SBI implementation has it (SBI 2.0,
 * OpenSBI >= 1.3), else one legacy sbi_console_putchar per byte (older board
 * firmware; QEMU 7.2's bundled OpenSBI 1.1).  Build with
 * WM_FORCE_LEGACY_CONSOLE=1 to test the legacy path on a newer SBI.
 */
#include <stdio.h>

#include "firmware.h"
#include "protocol.h"
#include "sbi.h"

#ifndef WM_FORCE_LEGACY_CONSOLE
#define WM_FORCE_LEGACY_CONSOLE 0
#endif

static int console_use_dbcn;
static char console_line[128];
static unsigned int console_len;

/*
 * A write that fails, or that says it wrote nothing (a call that would spin
 * forever if retried), or more than it was given, ends the use of DBCN for
 * good: the rest goes out through the legacy putchar, nothing is lost.
 */
static void console_flush(void)
{
	unsigned int done = 0;

	while (done < console_len) {
		struct sbiret r = sbi_debug_console_write(console_line + done,
							  console_len - done);

		if (r.error || r.value == 0 || (unsigned long)r.value > console_len - done) {
			console_use_dbcn = 0;
			while (done < console_len)
				sbi_legacy_putchar(console_line[done++]);
			break;
		}
		done += (unsigned int)r.value;
	}
	console_len = 0;
}

static int console_putc(char c, FILE *file)
{
	(void)file;
	proto_console(c);
	if (!console_use_dbcn) {
		sbi_legacy_putchar(c);
		return (unsigned char)c;
	}
	console_line[console_len++] = c;
	if (c == '\n' || console_len == sizeof(console_line))
		console_flush();
	return (unsigned char)c;
}

static FILE console_file = FDEV_SETUP_STREAM(console_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &console_file;
FILE *const stderr = &console_file;

const char *console_init(void)
{
	console_use_dbcn = !WM_FORCE_LEGACY_CONSOLE &&
			   sbi_probe_extension(SBI_EXT_DBCN);
	if (console_use_dbcn)
		return "SBI debug console (DBCN)";
	return WM_FORCE_LEGACY_CONSOLE ? "SBI legacy putchar (forced at build time)"
				       : "SBI legacy putchar (no DBCN extension)";
}

void console_sync(void)
{
	if (console_use_dbcn)
		console_flush();
}
