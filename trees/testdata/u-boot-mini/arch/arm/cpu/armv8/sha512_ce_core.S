/* SPDX-License-Identifier: MIT */
/*
 * sha512_armv8_ce_process(uint64_t state[8], const uint8_t *src,
 * uint32_t blocks) of lockstep's miniature U-Boot tree: one SHA-512
 * instruction (ARMv8.2) on the caller-saved v16-v18, then the generic code.
 */
#include <config.h>
#include <linux/linkage.h>
#include <asm/system.h>
#include <asm/macro.h>

	.text
	.arch	armv8.2-a+sha3

ENTRY(sha512_armv8_ce_process)
	sha512h	q16, q17, v18.2d
	mov	w2, w2
	b	sha512_blocks_generic
ENDPROC(sha512_armv8_ce_process)
