/*
 * start.S - entry for the plugin's misalign mode selftest guest.
 * Runs in M-mode on qemu-system-riscv64 -M virt -bios none (every hart
 * starts at 0x80000000).  Each hart gets its own 4 KiB stack and calls
 * selftest_main(hartid).  Any trap (e.g. if a misaligned access ever
 * trapped) makes QEMU exit with status 3 through the virt test finisher.
 */
#ifndef SELFTEST_HARTS
#define SELFTEST_HARTS 4
#endif
#define STACK_SHIFT 12

    .section .text.start, "ax", @progbits
    .globl _start
_start:
    csrr    a0, mhartid
    li      t0, SELFTEST_HARTS
    bgeu    a0, t0, park            /* more harts than expected: park them */
    la      t0, trap_entry
    csrw    mtvec, t0
    la      sp, stack_top
    slli    t1, a0, STACK_SHIFT
    sub     sp, sp, t1
    call    selftest_main
park:
    wfi
    j       park
    .size   _start, . - _start

    .balign 4
    .globl  trap_entry
trap_entry:
    li      t0, 0x100000            /* sifive_test finisher */
    li      t1, (3 << 16) | 0x3333  /* FAIL, exit status 3 */
    sw      t1, 0(t0)
1:  j       1b
    .size   trap_entry, . - trap_entry

    .section .bss.stack, "aw", @nobits
    .balign 16
stack_bottom:
    .space  SELFTEST_HARTS << STACK_SHIFT
stack_top:
