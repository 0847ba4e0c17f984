/* SPDX-License-Identifier: MIT */
/*
 * sha2_ce_transform(state, data, int blocks) of lockstep's miniature of the
 * older arm64 layout: one SHA-256 instruction that writes v8 (which the
 * kernel's code may do between kernel_neon_begin() and kernel_neon_end(),
 * and a user-space callee may not), then the generic code (the int count
 * widened to its size_t).
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text
	.arch	armv8-a+crypto

SYM_FUNC_START(sha2_ce_transform)
	sha256h	q8, q9, v10.4s
	sxtw	x2, w2
	b	sha256_blocks_generic
SYM_FUNC_END(sha2_ce_transform)
