/* SPDX-License-Identifier: MIT */
/*
 * mini_sha256_avx of lockstep's miniature tree: clobbers the vector registers a real
 * transform would (the section saved them), executes one AVX
 * instruction, then hands the blocks to the generic code.
 */
#include <linux/linkage.h>

.text
SYM_FUNC_START(mini_sha256_avx)
	pxor	%xmm0, %xmm0
	pxor	%xmm7, %xmm7
	pxor	%xmm15, %xmm15
	vpxor	%xmm1, %xmm2, %xmm0
	jmp	sha256_blocks_generic@PLT
SYM_FUNC_END(mini_sha256_avx)
