/* SPDX-License-Identifier: MIT */
/*
 * sha256_transform_ssse3(state, data, int blocks) of lockstep's miniature of
 * the older layout: executes one SSSE3 instruction, then hands the blocks
 * to the generic code (the int count widened to its size_t).
 */
#include <linux/linkage.h>

.text
SYM_FUNC_START(sha256_transform_ssse3)
	pshufb	%xmm1, %xmm0
	movslq	%edx, %rdx
	jmp	sha256_blocks_generic@PLT
SYM_FUNC_END(sha256_transform_ssse3)
