/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for the two headers a kernel build generates and these three
 * files reach (tests/peers.mk includes this one first, -include):
 * asm/asm-offsets.h, which arch/riscv/include/asm/asm.h includes (structure
 * offsets computed at build time: memcpy.S, memmove.S and memset.S use
 * none), and the .config's generated/autoconf.h.
 */
#ifndef WM_PEER_LINUX_STAND_IN_H
#define WM_PEER_LINUX_STAND_IN_H

/* An rv64 kernel's .config: memset.S widens its fill byte to 64 bits only with it. */
#define CONFIG_64BIT 1

#endif
