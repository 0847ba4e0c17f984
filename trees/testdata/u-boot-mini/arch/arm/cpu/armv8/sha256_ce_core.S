/* SPDX-License-Identifier: MIT */
/*
 * sha256_armv8_ce_process(uint32_t state[8], const uint8_t *src,
 * uint32_t blocks) of lockstep's miniature U-Boot tree: one SHA-256
 * instruction on the caller-saved v16-v18, then the generic code (the
 * 32-bit count zero-extended to its size_t).
 */
#include <config.h>
#include <linux/linkage.h>
#include <asm/system.h>
#include <asm/macro.h>

	.text
	.arch	armv8-a+crypto

ENTRY(sha256_armv8_ce_process)
	sha256h	q16, q17, v18.4s
	mov	w2, w2
	b	sha256_blocks_generic
ENDPROC(sha256_armv8_ce_process)
