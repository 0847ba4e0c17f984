/* SPDX-License-Identifier: MIT */
/*
 * sha256_ni_transform(state, data, int blocks) of lockstep's miniature of
 * the older layout: executes one SHA-NI instruction, then hands the blocks
 * to the generic code. Built where the assembler knows SHA-NI, as the
 * kernel's build says with CONFIG_AS_SHA256_NI.
 */
#include <linux/linkage.h>

#ifdef CONFIG_AS_SHA256_NI
.text
SYM_FUNC_START(sha256_ni_transform)
	sha256msg1	%xmm1, %xmm0
	movslq	%edx, %rdx
	jmp	sha256_blocks_generic@PLT
SYM_FUNC_END(sha256_ni_transform)
#endif
