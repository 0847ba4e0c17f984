/*
 * planted:clobbers-rbx's sha256_blocks, x86-64 System V.
 *
 * The planted bug is one a hand-written routine makes easily: it keeps the
 * block count in rbx, which belongs to the caller, without saving it. Then
 * it tail-calls the correct C compression, which preserves rbx as it found
 * it, so the caller gets back correct digests and the wrong rbx.
 */
	.text
	.globl	planted_sha256_blocks
	.hidden	planted_sha256_blocks
	.type	planted_sha256_blocks, @function
	.p2align 4
planted_sha256_blocks:
	.cfi_startproc
	endbr64
	movq	%rdx, %rbx
	jmp	planted_sha256_portable_blocks
	.cfi_endproc
	.size	planted_sha256_blocks, .-planted_sha256_blocks

	.section .note.GNU-stack,"",@progbits
