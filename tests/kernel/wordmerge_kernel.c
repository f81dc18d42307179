// SPDX-License-Identifier: MIT
/*
 * lib as the kernel's riscv mem* (tests/kernel/Kbuild builds this file, not
 * wordmerge.c itself): lib/wordmerge.c as it is, plus the names the kernel's
 * assembly gives its mem* beyond lib's own (WORDMERGE_STD_NAMES=2).  The
 * kernel's position-independent early boot code (arch/riscv/kernel/pi/) has
 * every symbol prefixed __pi_ by objcopy, its calls to memcpy and __memcpy
 * too, so arch/riscv/lib/memcpy.S, memmove.S and memset.S also define
 * __pi_memcpy and __pi___memcpy and the like; the kernel links against them.
 * lib's code is fit for that early code as the assembly is: no absolute
 * address (tests/kernel/kernel.sh checks its relocations), no instrumentation.
 */
#include "wordmerge.c"

#define WM_KERNEL_ALIAS(name, f) extern __typeof__(f) name __attribute__((__alias__(#f)))
WM_KERNEL_ALIAS(__pi_memcpy, wm_memcpy);
WM_KERNEL_ALIAS(__pi___memcpy, wm_memcpy);
WM_KERNEL_ALIAS(__pi_memmove, wm_memmove);
WM_KERNEL_ALIAS(__pi___memmove, wm_memmove);
WM_KERNEL_ALIAS(__pi_memset, wm_memset);
WM_KERNEL_ALIAS(__pi___memset, wm_memset);
