/* SPDX-License-Identifier: MIT */
/*
 * sha512_armv8_ce_process(uint64_t state[8], const uint8_t *src,
 * uint32_t blocks) of lockstep's miniature U-Boot tree: one SHA-512
 * instruction (ARMv8.2) on the caller-saved v16-v18, then the generic code,
 * with the 32-bit count as a count-down loop takes it (1 to 2^32 blocks).
 */
#include <config.h>
#include <linux/linkage.h>
#include <asm/system.h>
#include <asm/macro.h>

	.text
	.arch	armv8.2-a+sha3

ENTRY(sha512_armv8_ce_process)
	sha512h	q16, q17, v18.2d
	// Like a loop that counts the blocks down after each one: a count
	// of 0 runs 2^32 of them (w2 = 0 -> x2 = 1 << 32).
	sub	w3, w2, #1
	add	x2, x3, #1
	b	sha512_blocks_generic
ENDPROC(sha512_armv8_ce_process)
