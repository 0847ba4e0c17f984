/* SPDX-License-Identifier: MIT */
/*
 * chacha_block_xor_ssse3, chacha_4block_xor_ssse3 (state, dst, src, len,
 * nrounds) and hchacha_block_ssse3(state, out, nrounds) of the older
 * layout of lockstep's miniature tree: each function executes one
 * instruction of its extension, then hands the bytes to the generic code
 * and puts the block counter (word 12) back, since the caller advances it.
 */
#include <linux/linkage.h>

.text
SYM_FUNC_START(chacha_block_xor_ssse3)
	pshufb	%xmm1, %xmm0
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
SYM_FUNC_END(chacha_block_xor_ssse3)

SYM_FUNC_START(chacha_4block_xor_ssse3)
	pshufb	%xmm1, %xmm0
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
SYM_FUNC_END(chacha_4block_xor_ssse3)

SYM_FUNC_START(hchacha_block_ssse3)
	pshufb	%xmm1, %xmm0
	jmp	hchacha_block_generic@PLT
SYM_FUNC_END(hchacha_block_ssse3)
