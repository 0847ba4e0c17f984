/* SPDX-License-Identifier: MIT */
/*
 * sha2_ce_transform(state, data, int blocks) of lockstep's miniature of the
 * older arm64 layout: one SHA-256 instruction that writes v8 (which the
 * kernel's code may do between kernel_neon_begin() and kernel_neon_end(),
 * and a user-space callee may not); the state held in v0-v1 across a yield
 * point of the older kernels (if_will_cond_yield_neon ... endif_yield_neon:
 * stored before the yield, loaded again after it); then the generic code
 * (the int count widened to its size_t).
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text
	.arch	armv8-a+crypto

ENTRY(sha2_ce_transform)
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	str	x21, [sp, #32]
	mov	x19, x0
	mov	x20, x1
	sxtw	x21, w2

	sha256h	q8, q9, v10.4s
	ld1	{v0.4s-v1.4s}, [x19]

	if_will_cond_yield_neon
	st1	{v0.4s-v1.4s}, [x19]
	do_cond_yield_neon
	ld1	{v0.4s-v1.4s}, [x19]
	endif_yield_neon

	st1	{v0.4s-v1.4s}, [x19]
	mov	x0, x19
	mov	x1, x20
	mov	x2, x21
	ldr	x21, [sp, #32]
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #48
	b	sha256_blocks_generic
ENDPROC(sha2_ce_transform)
