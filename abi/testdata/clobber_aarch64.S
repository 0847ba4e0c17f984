/*
 * AArch64 functions for abi_check_test: each breaks exactly one rule of
 * AAPCS64 (or, for the controls, none), so the test can show every check in
 * lockstep::abi names exactly what was broken.
 */
#include "abi/aapcs64_callee_saved.h"

	.text

/* A function: name, then its body (one line; ";" separates instructions). */
.macro	func name, body:vararg
	.globl	\name
	.type	\name, %function
	.p2align 2
\name:
	\body
	.size	\name, .-\name
.endm

/* Uses every callee-saved register and puts each back. */
	.globl	abi_test_a64_well_behaved
	.type	abi_test_a64_well_behaved, %function
	.p2align 2
abi_test_a64_well_behaved:
	stp	x29, x30, [sp, #-160]!
	mov	x29, sp
	aapcs64_save_callee_saved sp, 16
	mov	x19, xzr
	mov	x20, xzr
	mov	x21, xzr
	mov	x22, xzr
	mov	x23, xzr
	mov	x24, xzr
	mov	x25, xzr
	mov	x26, xzr
	mov	x27, xzr
	mov	x28, xzr
	movi	v8.2d, #0
	movi	v9.2d, #0
	movi	v10.2d, #0
	movi	v11.2d, #0
	movi	v12.2d, #0
	movi	v13.2d, #0
	movi	v14.2d, #0
	movi	v15.2d, #0
	aapcs64_restore_callee_saved sp, 16
	ldp	x29, x30, [sp], #160
	ret
	.size	abi_test_a64_well_behaved, .-abi_test_a64_well_behaved

/* One callee-saved register inverted: never equal to what it held. */
func	abi_test_a64_clobber_x19, mvn x19, x19; ret
func	abi_test_a64_clobber_x20, mvn x20, x20; ret
func	abi_test_a64_clobber_x21, mvn x21, x21; ret
func	abi_test_a64_clobber_x22, mvn x22, x22; ret
func	abi_test_a64_clobber_x23, mvn x23, x23; ret
func	abi_test_a64_clobber_x24, mvn x24, x24; ret
func	abi_test_a64_clobber_x25, mvn x25, x25; ret
func	abi_test_a64_clobber_x26, mvn x26, x26; ret
func	abi_test_a64_clobber_x27, mvn x27, x27; ret
func	abi_test_a64_clobber_x28, mvn x28, x28; ret
func	abi_test_a64_clobber_x29, mvn x29, x29; ret

/* The low 64 bits of one of v8..v15 inverted (a write of the 8b form also
 * zeroes the upper half, which is the callee's to change anyway). */
func	abi_test_a64_clobber_d8, not v8.8b, v8.8b; ret
func	abi_test_a64_clobber_d9, not v9.8b, v9.8b; ret
func	abi_test_a64_clobber_d10, not v10.8b, v10.8b; ret
func	abi_test_a64_clobber_d11, not v11.8b, v11.8b; ret
func	abi_test_a64_clobber_d12, not v12.8b, v12.8b; ret
func	abi_test_a64_clobber_d13, not v13.8b, v13.8b; ret
func	abi_test_a64_clobber_d14, not v14.8b, v14.8b; ret
func	abi_test_a64_clobber_d15, not v15.8b, v15.8b; ret

/* The upper half of v8 inverted, the lower kept: allowed by AAPCS64. */
func	abi_test_a64_clobber_v8_upper, mov x9, v8.d[1]; mvn x9, x9; mov v8.d[1], x9; ret

/* Returns with sp 16 higher. ret goes through x30, not the stack, so this
 * returns normally; the trampoline survives it (see aarch64_trampoline.S). */
func	abi_test_a64_raise_sp, add sp, sp, #16; ret

/* For the bool-return test: 0x100 in w0 is false (only the low byte
 * counts), 0xff01 true. */
func	abi_test_a64_false_in_low_byte, mov x0, #0x100; ret
func	abi_test_a64_true_in_low_byte, mov x0, #0xff01; ret

/* void dump(uint64_t out[19]): what x19..x29 and d8..d15 hold on entry. */
	.globl	abi_test_a64_dump
	.type	abi_test_a64_dump, %function
	.p2align 2
abi_test_a64_dump:
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	str	x29, [x0, #80]
	str	d8, [x0, #88]
	stp	d9, d10, [x0, #96]
	stp	d11, d12, [x0, #112]
	stp	d13, d14, [x0, #128]
	str	d15, [x0, #144]
	ret
	.size	abi_test_a64_dump, .-abi_test_a64_dump

	.section .note.GNU-stack,"",%progbits
