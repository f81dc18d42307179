// SPDX-License-Identifier: MIT
/* SBI calls: see sbi.h.  Called by the boot hart in S-mode only. */
#include <stdint.h>

#include "sbi.h"

struct sbiret sbi_ecall(long ext, long fid, unsigned long a0, unsigned long a1,
			unsigned long a2, unsigned long a3, unsigned long a4,
			unsigned long a5)
{
	register unsigned long r_a0 __asm__("a0") = a0;
	register unsigned long r_a1 __asm__("a1") = a1;
	register unsigned long r_a2 __asm__("a2") = a2;
	register unsigned long r_a3 __asm__("a3") = a3;
	register unsigned long r_a4 __asm__("a4") = a4;
	register unsigned long r_a5 __asm__("a5") = a5;
	register unsigned long r_a6 __asm__("a6") = (unsigned long)fid;
	register unsigned long r_a7 __asm__("a7") = (unsigned long)ext;
	struct sbiret ret;

	__asm__ volatile("ecall"
			 : "+r"(r_a0), "+r"(r_a1)
			 : "r"(r_a2), "r"(r_a3), "r"(r_a4), "r"(r_a5),
			   "r"(r_a6), "r"(r_a7)
			 : "memory");
	ret.error = (long)r_a0;
	ret.value = (long)r_a1;
	return ret;
}

static long sbi_base(long fid, unsigned long arg)
{
	struct sbiret r = sbi_ecall(SBI_EXT_BASE, fid, arg, 0, 0, 0, 0, 0);

	return r.error ? 0 : r.value;
}

long sbi_get_spec_version(void) { return sbi_base(0, 0); }
long sbi_get_impl_id(void) { return sbi_base(1, 0); }
long sbi_get_impl_version(void) { return sbi_base(2, 0); }
long sbi_probe_extension(long ext) { return sbi_base(3, (unsigned long)ext); }
long sbi_get_mvendorid(void) { return sbi_base(4, 0); }

const char *sbi_impl_name(long id)
{
	static const char *const names[] = {
		"Berkeley BBL", "OpenSBI", "Xvisor", "KVM", "RustSBI",
		"Diosix", "Coffer", "Xen", "PolarFire HSS",
	};

	if (id >= 0 && id < (long)(sizeof(names) / sizeof(names[0])))
		return names[id];
	return "unknown";
}

void sbi_legacy_putchar(int c)
{
	sbi_ecall(SBI_EXT_LEGACY_PUTCHAR, 0, (unsigned long)c, 0, 0, 0, 0, 0);
}

/*
 * DBCN takes the buffer's physical address, and the address we hold is
 * that: paging is off (bare) except while the suite runs, and then
 * firmware/mmu.c's Sv39 map is an identity map, where every virtual
 * address equals its physical one.  The upper half goes in a2 on RV32 only;
 * on RV64 a2 must be 0.
 */
struct sbiret sbi_debug_console_write(const char *buf, unsigned long len)
{
	uint64_t pa = (uintptr_t)buf;
	unsigned long hi = sizeof(long) == 4 ? (unsigned long)(pa >> 32) : 0;

	return sbi_ecall(SBI_EXT_DBCN, 0, len, (unsigned long)pa, hi, 0, 0, 0);
}

struct sbiret sbi_system_reset(unsigned long type, unsigned long reason)
{
	return sbi_ecall(SBI_EXT_SRST, 0, type, reason, 0, 0, 0, 0);
}

void sbi_legacy_shutdown(void)
{
	sbi_ecall(SBI_EXT_LEGACY_SHUTDOWN, 0, 0, 0, 0, 0, 0, 0);
}

/* PMU extension, function ids 0, 2 and 5. */
struct sbiret sbi_pmu_num_counters(void)
{
	return sbi_ecall(SBI_EXT_PMU, 0, 0, 0, 0, 0, 0, 0);
}

struct sbiret sbi_pmu_counter_config_matching(unsigned long base, unsigned long mask,
					      unsigned long flags, unsigned long event,
					      unsigned long data)
{
	return sbi_ecall(SBI_EXT_PMU, 2, base, mask, flags, event, data, 0);
}

struct sbiret sbi_pmu_counter_fw_read(unsigned long counter)
{
	return sbi_ecall(SBI_EXT_PMU, 5, counter, 0, 0, 0, 0, 0);
}
