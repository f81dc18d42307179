/*
 * selftest.c - tiny bare-metal guest that checks the misalign plugin.
 *
 * Every hart runs aligned_accesses() (only naturally aligned loads/stores of
 * sizes 1, 2, 4 and 8) and then misalign_control(), which holds exactly one
 * deliberately misaligned 4-byte load (lw) and one deliberately misaligned
 * 8-byte store (sd).  Hart 0 waits for the others, prints a line on the
 * UART and writes 0x5555 to the virt test finisher so QEMU exits with 0.
 *
 * Expected plugin result with N harts: 2 sites, both in misalign_control,
 * N loads + N stores; nothing in aligned_accesses.
 */
#include <stdint.h>

#ifndef SELFTEST_HARTS
#define SELFTEST_HARTS 4
#endif

#define UART0    0x10000000UL   /* ns16550a on virt */
#define FINISHER 0x100000UL     /* sifive_test on virt */

static uint64_t buf[SELFTEST_HARTS][8] __attribute__((aligned(64)));
static uint32_t arrived;

__attribute__((noinline)) void aligned_accesses(uint64_t *p)
{
    uint64_t v;
    __asm__ volatile(
        "lb  %0, 1(%1)\n\t"
        "lh  %0, 2(%1)\n\t"
        "lw  %0, 4(%1)\n\t"
        "ld  %0, 8(%1)\n\t"
        "sb  %0, 17(%1)\n\t"
        "sh  %0, 18(%1)\n\t"
        "sw  %0, 20(%1)\n\t"
        "sd  %0, 24(%1)\n\t"
        : "=&r"(v) : "r"(p) : "memory");
}

__attribute__((noinline)) void misalign_control(uint64_t *p)
{
    uint64_t v;
    /* The deliberate misaligned accesses: lw at p+1, sd at p+35 (3 mod 8). */
    __asm__ volatile(
        "lw  %0, 1(%1)\n\t"
        "sd  %0, 35(%1)\n\t"
        : "=&r"(v) : "r"(p) : "memory");
}

static void uart_puts(const char *s)
{
    volatile uint8_t *u = (volatile uint8_t *)UART0;
    for (; *s; s++) {
        while (!(u[5] & 0x20)) {
            /* wait for THR empty */
        }
        u[0] = (uint8_t)*s;
    }
}

void selftest_main(unsigned long hartid)
{
    aligned_accesses(buf[hartid]);
    misalign_control(buf[hartid]);
    __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
    if (hartid != 0) {
        return;                     /* _start parks us */
    }
    while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) != SELFTEST_HARTS) {
    }
    uart_puts("plugin-selftest guest: all harts done\n");
    *(volatile uint32_t *)FINISHER = 0x5555;   /* PASS: QEMU exits 0 */
    for (;;) {
    }
}
