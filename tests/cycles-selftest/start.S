/*
 * The cycle model's selftest guest (tests/cycles.mk: cycles-selftest).
 *
 * M-mode on qemu-system-riscv64 -M virt -bios none, one hart.  It calls
 * each test function through `timed`, which reads instret right before and
 * right after the call the way the benchmark's harness does, so the trace
 * plugin (tools/plugin.c mode=trace) records one window per call; check.py runs
 * the windows through tools/cycles.py and compares instruction counts and
 * modeled cycles with figures worked out by hand (see check.py).
 *
 * Every test function loops ITERS times (a0) over a body of K copies of
 * one pattern; each pattern comes in two lengths, K_SHORT and K_LONG, with
 * the same loop overhead, so the difference of the two cycle counts is
 * ITERS * (K_LONG - K_SHORT) patterns in steady state: pipeline fill, the
 * loop's own instructions and the return cancel out.
 *
 * Any trap makes QEMU exit with status 3 through the virt test finisher.
 */
#define ITERS   4
#define K_SHORT 4
#define K_LONG  12

/* A global function (tools/cycles.py finds the harness and the mark by name). */
.macro FUNC name
    .globl  \name
    .type   \name, @function
\name:
.endm

    .section .text.start, "ax", @progbits
    .globl _start
_start:
    csrr    t0, mhartid
    bnez    t0, park
    la      t0, trap_entry
    csrw    mtvec, t0
    call    trace_start             /* the mark: windows from here on count */
    la      a5, dep_loads_4
    call    run
    la      a5, dep_loads_12
    call    run
    la      a5, alu_pairs_4
    call    run
    la      a5, alu_pairs_12
    call    run
    la      a5, ld_st_4
    call    run
    la      a5, ld_st_12
    call    run
    la      a5, calls_4
    call    run
    la      a5, calls_12
    call    run
    la      a5, bad_link
    call    run
    li      t0, 0x100000            /* sifive_test finisher: PASS */
    li      t1, 0x5555
    sw      t1, 0(t0)
park:
    wfi
    j       park
    .size   _start, . - _start

/* The arguments every test function gets, then the timed call. */
run:
    li      a0, ITERS
    la      a1, buf
    la      a2, selfptr
    j       timed
    .size   run, . - run

/*
 * The harness: calls a5 between two reads of instret, as firmware/bench.c's
 * TIME_CALL does.  tools/cycles.py finds the two csrr and drops the jalr
 * (this function's only instruction inside the window).
 */
FUNC timed
    mv      s11, ra
    csrr    t6, instret
    jalr    a5
    csrr    t6, instret
    mv      ra, s11
    ret
    .size   timed, . - timed

FUNC trace_start
    ret
    .size   trace_start, . - trace_start

/* A chain of dependent loads: each ld needs the previous one's result. */
.macro DEP_LOADS k
FUNC dep_loads_\k
1:  ld      a2, 0(a2)
    addi    a0, a0, -1              /* fills the U54's load-use bubble */
    .rept   \k - 1
    ld      a2, 0(a2)
    .endr
    bnez    a0, 1b
    ret
    .size   dep_loads_\k, . - dep_loads_\k
.endm

/*
 * K pairs of two instructions, the second a 4-byte encoding: alu_pairs,
 * independent ALU instructions, the second with a 2-byte form that the round
 * trip must not compress; ld_st, a load immediately followed by the store of
 * its result.
 */
.macro PAIRS name, k, first, second
FUNC \name\()_\k
1:  addi    a0, a0, -1
    .rept   \k
    \first
    .option push
    .option norvc
    \second
    .option pop
    .endr
    bnez    a0, 1b
    ret
    .size   \name\()_\k, . - \name\()_\k
.endm

/* Linking calls (jal ra) of a function that only returns. */
.macro CALLS k
FUNC calls_\k
    mv      s10, ra
1:  addi    a0, a0, -1
    .rept   \k
    jal     ra, leaf
    .endr
    bnez    a0, 1b
    mv      ra, s10
    ret
    .size   calls_\k, . - calls_\k
.endm

    .text
    DEP_LOADS K_SHORT
    DEP_LOADS K_LONG
    PAIRS alu_pairs, K_SHORT, "li t0, 1", "li t1, 2"
    PAIRS alu_pairs, K_LONG, "li t0, 1", "li t1, 2"
    PAIRS ld_st, K_SHORT, "ld t0, 0(a1)", "sd t0, 8(a1)"
    PAIRS ld_st, K_LONG, "ld t0, 0(a1)", "sd t0, 8(a1)"
    CALLS K_SHORT
    CALLS K_LONG

FUNC leaf
    ret
    .size   leaf, . - leaf

/*
 * A linking jump whose link the very next instruction stores: the model
 * cannot drop that link exactly, and cycles.py must refuse it.
 */
FUNC bad_link
    mv      s10, ra
    jal     ra, 1f
1:  sd      ra, 0(a1)
    mv      ra, s10
    ret
    .size   bad_link, . - bad_link

    .balign 4
    .globl  trap_entry
trap_entry:
    li      t0, 0x100000
    li      t1, (3 << 16) | 0x3333  /* FAIL, exit status 3 */
    sw      t1, 0(t0)
1:  j       1b
    .size   trap_entry, . - trap_entry

    .data
    .balign 8
selfptr:
    .dword  selfptr                 /* the dependent loads' chain */
buf:
    .dword  0, 0
