// SPDX-License-Identifier: MIT
/*
 * The correctness suite on a hosted target (the build machine, or a cross
 * target under qemu-user): wordmerge's wm_* functions, with the target's own
 * C library as the reference.  Exit status 0 only if every group passed.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/wordmerge.h"
#include "suite.h"

int main(void)
{
	static const struct suite_impl impls[] = {
		{ "wordmerge", WM_NAME(memcpy), WM_NAME(memmove), WM_NAME(memset) },
		{ "libc", memcpy, memmove, memset },
	};
	struct suite_result res = { 0, 0, 0, 0 };
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	suite_run(impls, 2, NULL, &res);
	status = suite_summary(&res);
	printf("EXIT: STATUS=%d\n", status);
	return status;
}
