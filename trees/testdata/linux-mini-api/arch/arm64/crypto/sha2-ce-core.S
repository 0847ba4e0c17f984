/* SPDX-License-Identifier: MIT */
/*
 * int sha2_ce_transform(struct sha256_ce_state *sst, u8 const *src, int
 * blocks) of lockstep's miniature of the older arm64 layout: one SHA-256
 * instruction, the blocks through the generic code, and then, where the
 * glue set sst->finalize, the padding block built here from the byte
 * count, as the kernel's transform finishes a message of whole blocks.
 * Returns the blocks left (none).
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text
	.arch	armv8-a+crypto

SYM_FUNC_START(sha2_ce_transform)
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	str	x21, [sp, #32]
	mov	x19, x0

	sha256h	q8, q9, v10.4s
	sxtw	x2, w2
	cbz	x2, 0f
	bl	sha256_blocks_generic

0:	ldr_l	w20, sha256_ce_offsetof_finalize, x21
	ldr	w20, [x19, x20]
	cbz	w20, 1f
	/* 0x80, zeros, the message's length in bits, big-endian. */
	ldr_l	w20, sha256_ce_offsetof_count, x21
	ldr	x20, [x19, x20]
	lsl	x20, x20, #3
	rev	x20, x20
	sub	sp, sp, #64
	stp	xzr, xzr, [sp]
	stp	xzr, xzr, [sp, #16]
	stp	xzr, xzr, [sp, #32]
	stp	xzr, x20, [sp, #48]
	mov	w9, #0x80
	strb	w9, [sp]
	mov	x0, x19
	mov	x1, sp
	mov	x2, #1
	bl	sha256_blocks_generic
	add	sp, sp, #64

1:	mov	w0, #0
	ldr	x21, [sp, #32]
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #48
	ret
SYM_FUNC_END(sha2_ce_transform)
