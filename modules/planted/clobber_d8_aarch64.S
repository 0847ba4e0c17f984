/*
 * planted:clobbers-d8's sha256_blocks, AAPCS64.
 *
 * The planted bug is one a hand-written routine makes easily: it parks the
 * block count in d8, whose low 64 bits belong to the caller, without saving
 * it. Nothing else is touched (the write zeroes v8's upper half, which the
 * callee may change). Then it tail-calls the correct C compression, which
 * preserves d8 as it found it, so the caller gets back correct digests and
 * the wrong d8.
 */
	.text
	.globl	planted_sha256_blocks
	.hidden	planted_sha256_blocks
	.type	planted_sha256_blocks, %function
	.p2align 2
planted_sha256_blocks:
	.cfi_startproc
	fmov	d8, x2
	b	planted_sha256_portable_blocks
	.cfi_endproc
	.size	planted_sha256_blocks, .-planted_sha256_blocks

	.section .note.GNU-stack,"",%progbits
