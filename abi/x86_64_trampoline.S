/*
 * The x86-64 System V trampoline behind lockstep::abi::call.
 *
 *   uint64_t lockstep_abi_trampoline(void (*fn)(void), struct x86_state *s,
 *                                    uint64_t a0, uint64_t a1, uint64_t a2,
 *                                    uint64_t a3, uint64_t a4, uint64_t a5);
 *
 * Loads rbx, rbp and r12..r15 from s (random values the C++ side chose),
 * calls fn(a0, ..., a5), and writes back what the callee left in them,
 * together with rsp, RFLAGS, MXCSR, the x87 control word and, where the CPU
 * can say, the XINUSE bits before and after the call. It returns fn's rax.
 * Comparing is left to C++; this file only moves values.
 *
 * After the call the trampoline puts right what the callee may have broken,
 * so the C++ caller carries on in a sane state: its own callee-saved
 * registers come back from its frame, rsp from s, the direction flag is
 * cleared, MXCSR and the control word are reloaded from their values before
 * the call, and vzeroupper drops any upper vector state left behind.
 *
 * Frame, from rsp at the call instruction upwards:
 *   0..31   four copies of s (see "rsp" below)
 *   32..39  padding: keeps rsp 16-byte aligned at the call
 *   40..87  r15 r14 r13 r12 rbx rbp, the caller's
 *   88      return address
 *   96      a4, 104: a5 (the caller's stack arguments)
 *
 * rsp: a callee that returns with rsp moved would normally have crashed on
 * its ret, but one that pops its return address and jumps back can return
 * with rsp raised. To survive that, the only thing read relative to rsp
 * after the call is s, kept in four copies, so rsp raised by 0, 8, 16 or 24
 * still finds it; s then gives back the rsp from before the call. A callee
 * that lowers rsp leaves its own data where s was and is not survivable.
 */
#include "trampoline_layout.h"

	.text
	.globl	lockstep_abi_trampoline
	.hidden	lockstep_abi_trampoline
	.type	lockstep_abi_trampoline, @function
	.p2align 4
lockstep_abi_trampoline:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r15, 0
	subq	$40, %rsp
	.cfi_adjust_cfa_offset 40

	movq	%rsi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rsi, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rsp, X86_RSP_BEFORE(%rsi)
	stmxcsr	X86_MXCSR_BEFORE(%rsi)
	fnstcw	X86_FCW_BEFORE(%rsi)

	/* Start the callee with clean upper vector state, so dirty state
	 * afterwards is its own doing. vzeroupper faults without AVX. */
	testl	$X86_FLAG_VZEROUPPER, X86_FLAGS(%rsi)
	jz	1f
	vzeroupper
1:
	/* XINUSE now: components vzeroupper cannot clear (zmm16..31, the
	 * opmasks) may be in use by the caller's own code, such as the C
	 * library's EVEX string functions. xgetbv needs ecx, writes edx:eax. */
	testl	$X86_FLAG_XINUSE, X86_FLAGS(%rsi)
	jz	2f
	movq	%rdx, %r10
	movq	%rcx, %r11
	movl	$1, %ecx
	xgetbv
	movl	%eax, X86_XINUSE_BEFORE(%rsi)
	movl	%edx, X86_XINUSE_BEFORE+4(%rsi)
	movq	%r10, %rdx
	movq	%r11, %rcx
2:
	/* Arguments two registers down; fn and s out of the way in r10, r11,
	 * neither an argument register nor callee-saved. */
	movq	%rdi, %r10
	movq	%rsi, %r11
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %rcx
	movq	96(%rsp), %r8
	movq	104(%rsp), %r9
	movq	X86_IN_GPR+0(%r11), %rbx
	movq	X86_IN_GPR+8(%r11), %rbp
	movq	X86_IN_GPR+16(%r11), %r12
	movq	X86_IN_GPR+24(%r11), %r13
	movq	X86_IN_GPR+32(%r11), %r14
	movq	X86_IN_GPR+40(%r11), %r15
	callq	*%r10

	/* rax is the result: keep it. r10 and r11 are free again. */
	movq	%rsp, %r11
	movq	(%rsp), %r10
	movq	X86_RSP_BEFORE(%r10), %rsp
	movq	%r11, X86_RSP_AFTER(%r10)
	movq	%rbx, X86_OUT_GPR+0(%r10)
	movq	%rbp, X86_OUT_GPR+8(%r10)
	movq	%r12, X86_OUT_GPR+16(%r10)
	movq	%r13, X86_OUT_GPR+24(%r10)
	movq	%r14, X86_OUT_GPR+32(%r10)
	movq	%r15, X86_OUT_GPR+40(%r10)
	pushfq
	.cfi_adjust_cfa_offset 8
	popq	%r11
	.cfi_adjust_cfa_offset -8
	movq	%r11, X86_RFLAGS_AFTER(%r10)
	cld
	stmxcsr	X86_MXCSR_AFTER(%r10)
	fnstcw	X86_FCW_AFTER(%r10)
	/* Reloading costs tens of cycles a call (ldmxcsr and fldcw are
	 * serialising on some CPUs): only where the callee changed them. */
	movl	X86_MXCSR_AFTER(%r10), %r11d
	cmpl	X86_MXCSR_BEFORE(%r10), %r11d
	je	5f
	ldmxcsr	X86_MXCSR_BEFORE(%r10)
5:
	movzwl	X86_FCW_AFTER(%r10), %r11d
	cmpw	X86_FCW_BEFORE(%r10), %r11w
	je	6f
	fldcw	X86_FCW_BEFORE(%r10)
6:

	testl	$X86_FLAG_XINUSE, X86_FLAGS(%r10)
	jz	3f
	movq	%rax, %r11
	movl	$1, %ecx
	xgetbv
	movl	%eax, X86_XINUSE_AFTER(%r10)
	movl	%edx, X86_XINUSE_AFTER+4(%r10)
	movq	%r11, %rax
3:
	testl	$X86_FLAG_VZEROUPPER, X86_FLAGS(%r10)
	jz	4f
	vzeroupper
4:
	addq	$40, %rsp
	.cfi_adjust_cfa_offset -40
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	lockstep_abi_trampoline, .-lockstep_abi_trampoline

	.section .note.GNU-stack,"",@progbits
