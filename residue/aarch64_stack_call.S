/*
 * The AAPCS64 side of lockstep::residue::Stack::call (x86_64_stack_call.S
 * is the System V one; the contract is the same).
 *
 *   uint64_t lockstep_residue_call(void (*fn)(void), const uint64_t args[6],
 *                                  void *stack_top, void *vectors,
 *                                  unsigned kind);
 *
 * Runs fn(args[0], ..., args[5]) with sp moved to stack_top (16-byte
 * aligned, inside a buffer the C++ side filled with a pattern). v0-v31 are
 * zeroed before the call and stored to `vectors` (32 x 16 bytes) after it,
 * when it is not NULL; `kind` is unused here. Returns fn's x0.
 *
 * The 32 bytes below stack_top keep the caller's sp and `vectors`. The
 * callee-saved registers (x19-x28, d8-d15, which the zeroing clobbers) are
 * kept on the caller's own stack, so a callee that breaks them cannot
 * break the caller too.
 */
#include "abi/aapcs64_callee_saved.h"

	.text
	.globl	lockstep_residue_call
	.hidden	lockstep_residue_call
	.type	lockstep_residue_call, %function
	.p2align 4
lockstep_residue_call:
	.cfi_startproc
	stp	x29, x30, [sp, #-160]!
	.cfi_def_cfa_offset 160
	.cfi_offset x29, -160
	.cfi_offset x30, -152
	mov	x29, sp
	.cfi_def_cfa x29, 160
	aapcs64_save_callee_saved sp, 16

	mov	x9, sp
	stp	x9, x3, [x2, #-32]
	mov	x16, x0
	mov	x17, x1
	/* The vector registers start at zero. */
	movi	v0.16b, #0
	movi	v1.16b, #0
	movi	v2.16b, #0
	movi	v3.16b, #0
	movi	v4.16b, #0
	movi	v5.16b, #0
	movi	v6.16b, #0
	movi	v7.16b, #0
	movi	v8.16b, #0
	movi	v9.16b, #0
	movi	v10.16b, #0
	movi	v11.16b, #0
	movi	v12.16b, #0
	movi	v13.16b, #0
	movi	v14.16b, #0
	movi	v15.16b, #0
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
	movi	v19.16b, #0
	movi	v20.16b, #0
	movi	v21.16b, #0
	movi	v22.16b, #0
	movi	v23.16b, #0
	movi	v24.16b, #0
	movi	v25.16b, #0
	movi	v26.16b, #0
	movi	v27.16b, #0
	movi	v28.16b, #0
	movi	v29.16b, #0
	movi	v30.16b, #0
	movi	v31.16b, #0
	sub	sp, x2, #32
	ldp	x0, x1, [x17]
	ldp	x2, x3, [x17, #16]
	ldp	x4, x5, [x17, #32]
	blr	x16

	ldr	x9, [sp, #8]
	cbz	x9, 9f
	st1	{v0.16b, v1.16b, v2.16b, v3.16b}, [x9], #64
	st1	{v4.16b, v5.16b, v6.16b, v7.16b}, [x9], #64
	st1	{v8.16b, v9.16b, v10.16b, v11.16b}, [x9], #64
	st1	{v12.16b, v13.16b, v14.16b, v15.16b}, [x9], #64
	st1	{v16.16b, v17.16b, v18.16b, v19.16b}, [x9], #64
	st1	{v20.16b, v21.16b, v22.16b, v23.16b}, [x9], #64
	st1	{v24.16b, v25.16b, v26.16b, v27.16b}, [x9], #64
	st1	{v28.16b, v29.16b, v30.16b, v31.16b}, [x9]
9:	ldr	x9, [sp]
	mov	sp, x9
	aapcs64_restore_callee_saved sp, 16
	ldp	x29, x30, [sp], #160
	.cfi_def_cfa sp, 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	lockstep_residue_call, .-lockstep_residue_call

	.section .note.GNU-stack,"",@progbits
