/* SPDX-License-Identifier: MIT */
/*
 * Calls from S-mode into the SBI implementation (OpenSBI), per the RISC-V SBI
 * specification: one sbi_ecall() and thin named wrappers.  Callers check
 * .error (SBI_SUCCESS == 0).
 */
#ifndef WM_SBI_H
#define WM_SBI_H

struct sbiret {
	long error;
	long value;
};

#define SBI_SUCCESS		0

/* Extension ids */
#define SBI_EXT_LEGACY_PUTCHAR	0x01
#define SBI_EXT_LEGACY_SHUTDOWN	0x08
#define SBI_EXT_BASE		0x10
#define SBI_EXT_SRST		0x53525354	/* "SRST" */
#define SBI_EXT_PMU		0x504D55	/* "PMU" */
#define SBI_EXT_DBCN		0x4442434E	/* "DBCN" */

struct sbiret sbi_ecall(long ext, long fid, unsigned long a0, unsigned long a1,
			unsigned long a2, unsigned long a3, unsigned long a4,
			unsigned long a5);

/* Base extension: these cannot fail on an SBI >= 0.2. */
long sbi_get_spec_version(void);
long sbi_get_impl_id(void);
long sbi_get_impl_version(void);
/* Non-zero if the extension is present. */
long sbi_probe_extension(long ext);
/* The hart's JEDEC vendor id: 0 on QEMU (and on a core of no vendor). */
long sbi_get_mvendorid(void);
const char *sbi_impl_name(long id);

void sbi_legacy_putchar(int c);
struct sbiret sbi_debug_console_write(const char *buf, unsigned long len);
/* type 0 = shutdown; reason 0 = none, 1 = system failure. */
struct sbiret sbi_system_reset(unsigned long type, unsigned long reason);
void sbi_legacy_shutdown(void);

/*
 * Performance monitoring (PMU): firmware counters.  config_matching's flags:
 * bit 1 CLEAR_VALUE, bit 2 AUTO_START (2 alone leaves the counter stopped).
 */
#define SBI_PMU_CFG_CLEAR_VALUE	(1UL << 1)
#define SBI_PMU_CFG_AUTO_START	(1UL << 2)
struct sbiret sbi_pmu_num_counters(void);
struct sbiret sbi_pmu_counter_config_matching(unsigned long base, unsigned long mask,
					      unsigned long flags, unsigned long event,
					      unsigned long data);
struct sbiret sbi_pmu_counter_fw_read(unsigned long counter);

#endif /* WM_SBI_H */
