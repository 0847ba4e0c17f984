/* SPDX-License-Identifier: MIT */
/*
 * mini_chacha_neon(state, dst, src, len, nrounds) of lockstep's miniature
 * tree: writes v8 (which kernel code may do inside kernel_neon_begin() and
 * kernel_neon_end()), keeps what it needs across the call in x19 and x20
 * of a frame_push frame, hands the bytes to the generic code and puts the
 * block counter (word 12) back, since the caller advances it.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text

SYM_FUNC_START(mini_chacha_neon)
	frame_push	2
	movi	v8.16b, #0x5a
	mov	x19, x0
	ldr	w20, [x0, #48]
	bl	chacha_crypt_generic
	str	w20, [x19, #48]
	frame_pop
	ret
SYM_FUNC_END(mini_chacha_neon)
