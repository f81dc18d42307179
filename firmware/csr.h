/* SPDX-License-Identifier: MIT */
/*
 * Supervisor CSR numbers and bits, for boot/ (.S) and firmware/ (.c) alike.
 * Numbers from the RISC-V privileged specification.
 */
#ifndef WM_CSR_H
#define WM_CSR_H

#define CSR_SSTATUS	0x100
#define CSR_SIE		0x104
#define CSR_STVEC	0x105
#define CSR_SCOUNTEREN	0x106
#define CSR_SSCRATCH	0x140
#define CSR_SEPC	0x141
#define CSR_SCAUSE	0x142
#define CSR_STVAL	0x143
#define CSR_SIP		0x144
#define CSR_SATP	0x180
#define CSR_CYCLE	0xc00
#define CSR_TIME	0xc01
#define CSR_INSTRET	0xc02

#define SSTATUS_SIE	(1 << 1)
#define SSTATUS_SPP	(1 << 8)	/* the mode a trap came from: 0 U, 1 S */
#define SSTATUS_SUM	(1 << 18)	/* S-mode may touch U pages */
#define SCAUSE_INTERRUPT_BIT 63	/* rv64: top bit of scause */

/* satp (rv64) and Sv39 page table entries */
#define SATP_MODE_SV39	(8UL << 60)
#define PTE_V		(1 << 0)
#define PTE_R		(1 << 1)
#define PTE_W		(1 << 2)
#define PTE_X		(1 << 3)
#define PTE_U		(1 << 4)
#define PTE_G		(1 << 5)
#define PTE_A		(1 << 6)
#define PTE_D		(1 << 7)
#define PTE_PPN_SHIFT	10

/* scause exception codes */
#define CAUSE_MISALIGNED_FETCH	0
#define CAUSE_FETCH_ACCESS	1
#define CAUSE_ILLEGAL_INSN	2
#define CAUSE_BREAKPOINT	3
#define CAUSE_MISALIGNED_LOAD	4
#define CAUSE_LOAD_ACCESS	5
#define CAUSE_MISALIGNED_STORE	6
#define CAUSE_STORE_ACCESS	7
#define CAUSE_USER_ECALL	8
#define CAUSE_SUPERVISOR_ECALL	9
#define CAUSE_FETCH_PAGE_FAULT	12
#define CAUSE_LOAD_PAGE_FAULT	13
#define CAUSE_STORE_PAGE_FAULT	15


#ifndef __ASSEMBLER__
/* csr_read(CSR_SCAUSE): the number, pasted into the instruction as text. */
#define CSR_STR_(x) #x
#define CSR_STR(x) CSR_STR_(x)
#define csr_read(csr)                                                     \
	({                                                                \
		unsigned long __v;                                        \
		__asm__ volatile("csrr %0, " CSR_STR(csr) : "=r"(__v)::"memory"); \
		__v;                                                      \
	})
#endif

#endif /* WM_CSR_H */
