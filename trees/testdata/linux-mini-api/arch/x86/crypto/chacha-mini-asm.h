/* SPDX-License-Identifier: MIT */
/*
 * The ChaCha routines of lockstep's miniature of the older layout: each
 * executes one instruction of its extension, then XORs up to its number
 * of blocks of keystream into src with the generic code, from the block
 * counter in state[12], which it leaves as it found it: the glue advances
 * it, as the kernel's assembly leaves it to the glue.
 *
 *	void name(u32 *state, u8 *dst, const u8 *src, unsigned int len,
 *		  int nrounds);
 */
#include <linux/linkage.h>

.macro CHACHA_XOR_BLOCKS name, blocks, insn, leave=
SYM_FUNC_START(\name)
	\insn
	push	%rbx
	push	%r12
	sub	$8, %rsp
	mov	%rdi, %rbx
	mov	48(%rdi), %r12d
	mov	$(\blocks * 64), %eax
	cmp	%eax, %ecx
	cmova	%eax, %ecx
	call	chacha_crypt_generic@PLT
	mov	%r12d, 48(%rbx)
	add	$8, %rsp
	pop	%r12
	pop	%rbx
	\leave
	RET
SYM_FUNC_END(\name)
.endm
