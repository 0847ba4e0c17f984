/*
 * x86-64 functions for abi_check_test: each breaks exactly one rule of the
 * System V calling convention (or, for the controls, none), so the test can
 * show every check in lockstep::abi names exactly what was broken.
 */
	.text

/* A function: name, then its body (one line; ";" separates instructions). */
.macro	func name, body:vararg
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	\body
	.size	\name, .-\name
.endm

/* Uses every callee-saved register, the control words and the direction
 * flag, and puts everything back as it should. */
	.globl	abi_test_x86_well_behaved
	.type	abi_test_x86_well_behaved, @function
	.p2align 4
abi_test_x86_well_behaved:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$16, %rsp
	xorl	%ebx, %ebx
	xorl	%ebp, %ebp
	xorl	%r12d, %r12d
	xorl	%r13d, %r13d
	xorl	%r14d, %r14d
	xorl	%r15d, %r15d
	stmxcsr	0(%rsp)
	movl	0(%rsp), %eax
	xorl	$0x6000, %eax
	movl	%eax, 4(%rsp)
	ldmxcsr	4(%rsp)
	ldmxcsr	0(%rsp)
	fnstcw	8(%rsp)
	movzwl	8(%rsp), %eax
	xorl	$0x0c00, %eax
	movw	%ax, 10(%rsp)
	fldcw	10(%rsp)
	fldcw	8(%rsp)
	std
	cld
	addq	$16, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	abi_test_x86_well_behaved, .-abi_test_x86_well_behaved

/* One callee-saved register inverted: never equal to what it held. */
func	abi_test_x86_clobber_rbx, notq %rbx; ret
func	abi_test_x86_clobber_rbp, notq %rbp; ret
func	abi_test_x86_clobber_r12, notq %r12; ret
func	abi_test_x86_clobber_r13, notq %r13; ret
func	abi_test_x86_clobber_r14, notq %r14; ret
func	abi_test_x86_clobber_r15, notq %r15; ret

/* Returns with rsp 8 higher: pops its return address, drops one more
 * slot, and jumps back. (A plain ret with rsp moved would return to
 * whatever lies there and crash; lowering rsp is not survivable for the
 * trampoline: see x86_64_trampoline.S.) */
func	abi_test_x86_raise_rsp, popq %rcx; addq $8, %rsp; jmpq *%rcx

/* Returns with the direction flag set. */
func	abi_test_x86_set_df, std; ret

/* Flips MXCSR's rounding control (bits 13-14) and returns. */
func	abi_test_x86_change_mxcsr, stmxcsr -4(%rsp); xorl $0x6000, -4(%rsp); ldmxcsr -4(%rsp); ret

/* Sets MXCSR's precision exception flag (bit 5): status, caller-saved,
 * not a violation. */
func	abi_test_x86_mxcsr_status, stmxcsr -4(%rsp); orl $0x20, -4(%rsp); ldmxcsr -4(%rsp); ret

/* Flips the x87 rounding control (bits 10-11) and returns. */
func	abi_test_x86_change_fcw, fnstcw -2(%rsp); xorw $0x0c00, -2(%rsp); fldcw -2(%rsp); ret

/* ymm0 all ones (AVX), upper half included, and no vzeroupper. */
func	abi_test_x86_dirty_ymm, vcmpps $15, %ymm0, %ymm0, %ymm0; ret
/* The same, then vzeroupper as the ABI's performance rule wants. */
func	abi_test_x86_clean_ymm, vcmpps $15, %ymm0, %ymm0, %ymm0; vzeroupper; ret
/* zmm1 all ones (AVX-512F), no vzeroupper. */
func	abi_test_x86_dirty_zmm, vpternlogd $0xff, %zmm1, %zmm1, %zmm1; ret

/* For the bool-return test: 0x100 in eax is false (only al
 * counts), 0xffffff01 true. */
func	abi_test_x86_false_in_low_byte, movl $0x100, %eax; ret
func	abi_test_x86_true_in_low_byte, movl $0xffffff01, %eax; ret

/* void dump(uint64_t out[6]): what the callee-saved registers hold on entry,
 * rbx rbp r12 r13 r14 r15. */
func	abi_test_x86_dump, movq %rbx, 0(%rdi); movq %rbp, 8(%rdi); movq %r12, 16(%rdi); movq %r13, 24(%rdi); movq %r14, 32(%rdi); movq %r15, 40(%rdi); ret

	.section .note.GNU-stack,"",@progbits
