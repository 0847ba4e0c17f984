/* SPDX-License-Identifier: MIT */
/*
 * mini_chacha_avx2(state, dst, src, len, nrounds) of lockstep's miniature
 * tree: each function executes one instruction of its extension, then
 * hands the bytes to the generic code and puts the block counter (word 12)
 * back, since the caller advances it.
 */
#include <linux/linkage.h>

.text
SYM_FUNC_START(mini_chacha_avx2)
	vpcmpeqd	%ymm0, %ymm0, %ymm0
	vzeroupper
	push	%rbx
	push	%r12
	sub	$8, %rsp
	mov	%rdi, %rbx
	mov	48(%rdi), %r12d
	call	chacha_crypt_generic@PLT
	mov	%r12d, 48(%rbx)
	add	$8, %rsp
	pop	%r12
	pop	%rbx
	RET
SYM_FUNC_END(mini_chacha_avx2)
