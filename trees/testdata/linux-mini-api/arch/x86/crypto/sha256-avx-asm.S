/* SPDX-License-Identifier: MIT */
/*
 * sha256_transform_avx(state, data, int blocks) of lockstep's miniature of
 * the older layout: executes one AVX instruction (on xmm registers, which
 * leaves the upper halves clean), then hands the blocks to the generic code.
 */
#include <linux/linkage.h>

.text
SYM_FUNC_START(sha256_transform_avx)
	vpxor	%xmm1, %xmm0, %xmm0
	movslq	%edx, %rdx
	jmp	sha256_blocks_generic@PLT
SYM_FUNC_END(sha256_transform_avx)
