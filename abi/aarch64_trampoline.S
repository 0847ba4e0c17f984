/*
 * The AArch64 (AAPCS64) trampoline behind lockstep::abi::call.
 *
 *   uint64_t lockstep_abi_trampoline(void (*fn)(void), struct a64_state *s,
 *                                    uint64_t a0, uint64_t a1, uint64_t a2,
 *                                    uint64_t a3, uint64_t a4, uint64_t a5);
 *
 * Loads x19..x29 and d8..d15 from s (random values the C++ side chose),
 * calls fn(a0, ..., a5), writes back what the callee left in them and in sp,
 * and returns fn's x0. Comparing is left to C++; this file only moves
 * values. The caller's own registers come back from the frame afterwards.
 *
 * Only the low 64 bits of v8..v15 are callee-saved, so only d8..d15 are
 * loaded and compared: a callee may change the upper halves freely.
 *
 * Frame, from sp at the call upwards (192 bytes, sp stays 16-aligned):
 *   0..31    four copies of s (see "sp" below)
 *   32, 40   x29, x30, the caller's
 *   48..127  x19..x28
 *   128..191 d8..d15
 *
 * sp: ret does not use sp, so a callee that moves sp returns without
 * crashing. After the call the only load relative to sp is of s, kept in
 * four copies, so sp raised by 0, 8, 16 or 24 still finds it; s then gives
 * back the sp from before the call. That load goes through x9, not sp, so
 * an sp no longer 16-aligned does not fault. A callee that lowers sp leaves
 * its own data where s was and is not survivable.
 */
#include "trampoline_layout.h"

	.text
	.globl	lockstep_abi_trampoline
	.hidden	lockstep_abi_trampoline
	.type	lockstep_abi_trampoline, %function
	.p2align 4
lockstep_abi_trampoline:
	.cfi_startproc
	sub	sp, sp, #192
	.cfi_def_cfa_offset 192
	stp	x29, x30, [sp, #32]
	.cfi_offset x29, -160
	.cfi_offset x30, -152
	stp	x19, x20, [sp, #48]
	.cfi_offset x19, -144
	.cfi_offset x20, -136
	stp	x21, x22, [sp, #64]
	.cfi_offset x21, -128
	.cfi_offset x22, -120
	stp	x23, x24, [sp, #80]
	.cfi_offset x23, -112
	.cfi_offset x24, -104
	stp	x25, x26, [sp, #96]
	.cfi_offset x25, -96
	.cfi_offset x26, -88
	stp	x27, x28, [sp, #112]
	.cfi_offset x27, -80
	.cfi_offset x28, -72
	stp	d8, d9, [sp, #128]
	.cfi_offset d8, -64
	.cfi_offset d9, -56
	stp	d10, d11, [sp, #144]
	.cfi_offset d10, -48
	.cfi_offset d11, -40
	stp	d12, d13, [sp, #160]
	.cfi_offset d12, -32
	.cfi_offset d13, -24
	stp	d14, d15, [sp, #176]
	.cfi_offset d14, -16
	.cfi_offset d15, -8

	stp	x1, x1, [sp, #0]
	stp	x1, x1, [sp, #16]
	mov	x9, sp
	str	x9, [x1, #A64_SP_BEFORE]

	/* fn in x16 (IP0, free to use between calls), the values to plant,
	 * then the arguments two registers down. */
	mov	x16, x0
	ldp	x19, x20, [x1, #A64_IN_X + 0]
	ldp	x21, x22, [x1, #A64_IN_X + 16]
	ldp	x23, x24, [x1, #A64_IN_X + 32]
	ldp	x25, x26, [x1, #A64_IN_X + 48]
	ldp	x27, x28, [x1, #A64_IN_X + 64]
	ldr	x29, [x1, #A64_IN_X + 80]
	ldp	d8, d9, [x1, #A64_IN_D + 0]
	ldp	d10, d11, [x1, #A64_IN_D + 16]
	ldp	d12, d13, [x1, #A64_IN_D + 32]
	ldp	d14, d15, [x1, #A64_IN_D + 48]
	mov	x0, x2
	mov	x1, x3
	mov	x2, x4
	mov	x3, x5
	mov	x4, x6
	mov	x5, x7
	blr	x16

	/* x0 is the result: keep it. x9..x11 are free again. */
	mov	x9, sp
	ldr	x10, [x9]
	ldr	x11, [x10, #A64_SP_BEFORE]
	mov	sp, x11
	str	x9, [x10, #A64_SP_AFTER]
	stp	x19, x20, [x10, #A64_OUT_X + 0]
	stp	x21, x22, [x10, #A64_OUT_X + 16]
	stp	x23, x24, [x10, #A64_OUT_X + 32]
	stp	x25, x26, [x10, #A64_OUT_X + 48]
	stp	x27, x28, [x10, #A64_OUT_X + 64]
	str	x29, [x10, #A64_OUT_X + 80]
	stp	d8, d9, [x10, #A64_OUT_D + 0]
	stp	d10, d11, [x10, #A64_OUT_D + 16]
	stp	d12, d13, [x10, #A64_OUT_D + 32]
	stp	d14, d15, [x10, #A64_OUT_D + 48]

	ldp	d14, d15, [sp, #176]
	ldp	d12, d13, [sp, #160]
	ldp	d10, d11, [sp, #144]
	ldp	d8, d9, [sp, #128]
	ldp	x27, x28, [sp, #112]
	ldp	x25, x26, [sp, #96]
	ldp	x23, x24, [sp, #80]
	ldp	x21, x22, [sp, #64]
	ldp	x19, x20, [sp, #48]
	ldp	x29, x30, [sp, #32]
	add	sp, sp, #192
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	.cfi_restore x19
	.cfi_restore x20
	.cfi_restore x21
	.cfi_restore x22
	.cfi_restore x23
	.cfi_restore x24
	.cfi_restore x25
	.cfi_restore x26
	.cfi_restore x27
	.cfi_restore x28
	.cfi_restore d8
	.cfi_restore d9
	.cfi_restore d10
	.cfi_restore d11
	.cfi_restore d12
	.cfi_restore d13
	.cfi_restore d14
	.cfi_restore d15
	ret
	.cfi_endproc
	.size	lockstep_abi_trampoline, .-lockstep_abi_trampoline

	.section .note.GNU-stack,"",%progbits
