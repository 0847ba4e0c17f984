/* SPDX-License-Identifier: MIT */
/*
 * mini_sha256_avx2_bmi2 of lockstep's miniature tree: clobbers the vector
 * registers a real transform would (the section saved them), executes one
 * BMI2 instruction (rorx, which AVX2 SHA-2 code uses), then hands the
 * blocks to the generic code.
 */
#include <linux/linkage.h>

.text
SYM_FUNC_START(mini_sha256_avx2_bmi2)
	pxor	%xmm0, %xmm0
	pxor	%xmm7, %xmm7
	pxor	%xmm15, %xmm15
	rorxl	$7, %eax, %ecx
	jmp	sha256_blocks_generic@PLT
SYM_FUNC_END(mini_sha256_avx2_bmi2)
