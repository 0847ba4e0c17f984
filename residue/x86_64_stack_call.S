/*
 * The x86-64 System V side of lockstep::residue::Stack::call.
 *
 *   uint64_t lockstep_residue_call(void (*fn)(void), const uint64_t args[6],
 *                                  void *stack_top, void *vectors,
 *                                  unsigned kind);
 *
 * Runs fn(args[0], ..., args[5]) with rsp moved to stack_top (16-byte
 * aligned, inside a buffer the C++ side filled with a pattern), so that
 * everything the callee leaves below its stack pointer stays there to be
 * read. The vector registers are zeroed before the call (what the caller
 * had there is not the callee's residue) and stored to `vectors` after it,
 * when it is not NULL: kind 0 xmm0-15 (16 x 16 bytes), 1 ymm0-15 (16 x 32),
 * 2 zmm0-31 (32 x 64). Returns fn's rax.
 *
 * The 32 bytes below stack_top keep what is needed after the call (the
 * caller's rsp, `vectors`, `kind`); the caller's callee-saved registers are
 * pushed on its own stack and popped from there, so a callee that breaks
 * them (the abi column's business) cannot break the caller too.
 */
	.text
	.globl	lockstep_residue_call
	.hidden	lockstep_residue_call
	.type	lockstep_residue_call, @function
	.p2align 4
lockstep_residue_call:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp

	movq	%rsp, -32(%rdx)
	movq	%rcx, -24(%rdx)
	movq	%r8, -16(%rdx)
	movq	%rdi, %rax
	movq	%rsi, %r11
	/* The vector registers start at zero. */
	cmpl	$2, %r8d
	je	1f
	cmpl	$1, %r8d
	je	2f
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	pxor	%xmm2, %xmm2
	pxor	%xmm3, %xmm3
	pxor	%xmm4, %xmm4
	pxor	%xmm5, %xmm5
	pxor	%xmm6, %xmm6
	pxor	%xmm7, %xmm7
	pxor	%xmm8, %xmm8
	pxor	%xmm9, %xmm9
	pxor	%xmm10, %xmm10
	pxor	%xmm11, %xmm11
	pxor	%xmm12, %xmm12
	pxor	%xmm13, %xmm13
	pxor	%xmm14, %xmm14
	pxor	%xmm15, %xmm15
	jmp	3f
1:	vpxord	%zmm16, %zmm16, %zmm16
	vpxord	%zmm17, %zmm17, %zmm17
	vpxord	%zmm18, %zmm18, %zmm18
	vpxord	%zmm19, %zmm19, %zmm19
	vpxord	%zmm20, %zmm20, %zmm20
	vpxord	%zmm21, %zmm21, %zmm21
	vpxord	%zmm22, %zmm22, %zmm22
	vpxord	%zmm23, %zmm23, %zmm23
	vpxord	%zmm24, %zmm24, %zmm24
	vpxord	%zmm25, %zmm25, %zmm25
	vpxord	%zmm26, %zmm26, %zmm26
	vpxord	%zmm27, %zmm27, %zmm27
	vpxord	%zmm28, %zmm28, %zmm28
	vpxord	%zmm29, %zmm29, %zmm29
	vpxord	%zmm30, %zmm30, %zmm30
	vpxord	%zmm31, %zmm31, %zmm31
2:	vzeroall
3:
	leaq	-32(%rdx), %rsp
	movq	0(%r11), %rdi
	movq	8(%r11), %rsi
	movq	16(%r11), %rdx
	movq	24(%r11), %rcx
	movq	32(%r11), %r8
	movq	40(%r11), %r9
	callq	*%rax

	movq	8(%rsp), %r11
	movl	16(%rsp), %ecx
	testq	%r11, %r11
	jz	9f
	cmpl	$2, %ecx
	je	5f
	cmpl	$1, %ecx
	je	4f
	movdqu	%xmm0, 0(%r11)
	movdqu	%xmm1, 16(%r11)
	movdqu	%xmm2, 32(%r11)
	movdqu	%xmm3, 48(%r11)
	movdqu	%xmm4, 64(%r11)
	movdqu	%xmm5, 80(%r11)
	movdqu	%xmm6, 96(%r11)
	movdqu	%xmm7, 112(%r11)
	movdqu	%xmm8, 128(%r11)
	movdqu	%xmm9, 144(%r11)
	movdqu	%xmm10, 160(%r11)
	movdqu	%xmm11, 176(%r11)
	movdqu	%xmm12, 192(%r11)
	movdqu	%xmm13, 208(%r11)
	movdqu	%xmm14, 224(%r11)
	movdqu	%xmm15, 240(%r11)
	jmp	9f
4:	vmovdqu	%ymm0, 0(%r11)
	vmovdqu	%ymm1, 32(%r11)
	vmovdqu	%ymm2, 64(%r11)
	vmovdqu	%ymm3, 96(%r11)
	vmovdqu	%ymm4, 128(%r11)
	vmovdqu	%ymm5, 160(%r11)
	vmovdqu	%ymm6, 192(%r11)
	vmovdqu	%ymm7, 224(%r11)
	vmovdqu	%ymm8, 256(%r11)
	vmovdqu	%ymm9, 288(%r11)
	vmovdqu	%ymm10, 320(%r11)
	vmovdqu	%ymm11, 352(%r11)
	vmovdqu	%ymm12, 384(%r11)
	vmovdqu	%ymm13, 416(%r11)
	vmovdqu	%ymm14, 448(%r11)
	vmovdqu	%ymm15, 480(%r11)
	vzeroupper
	jmp	9f
5:	vmovdqu64 %zmm0, 0(%r11)
	vmovdqu64 %zmm1, 64(%r11)
	vmovdqu64 %zmm2, 128(%r11)
	vmovdqu64 %zmm3, 192(%r11)
	vmovdqu64 %zmm4, 256(%r11)
	vmovdqu64 %zmm5, 320(%r11)
	vmovdqu64 %zmm6, 384(%r11)
	vmovdqu64 %zmm7, 448(%r11)
	vmovdqu64 %zmm8, 512(%r11)
	vmovdqu64 %zmm9, 576(%r11)
	vmovdqu64 %zmm10, 640(%r11)
	vmovdqu64 %zmm11, 704(%r11)
	vmovdqu64 %zmm12, 768(%r11)
	vmovdqu64 %zmm13, 832(%r11)
	vmovdqu64 %zmm14, 896(%r11)
	vmovdqu64 %zmm15, 960(%r11)
	vmovdqu64 %zmm16, 1024(%r11)
	vmovdqu64 %zmm17, 1088(%r11)
	vmovdqu64 %zmm18, 1152(%r11)
	vmovdqu64 %zmm19, 1216(%r11)
	vmovdqu64 %zmm20, 1280(%r11)
	vmovdqu64 %zmm21, 1344(%r11)
	vmovdqu64 %zmm22, 1408(%r11)
	vmovdqu64 %zmm23, 1472(%r11)
	vmovdqu64 %zmm24, 1536(%r11)
	vmovdqu64 %zmm25, 1600(%r11)
	vmovdqu64 %zmm26, 1664(%r11)
	vmovdqu64 %zmm27, 1728(%r11)
	vmovdqu64 %zmm28, 1792(%r11)
	vmovdqu64 %zmm29, 1856(%r11)
	vmovdqu64 %zmm30, 1920(%r11)
	vmovdqu64 %zmm31, 1984(%r11)
	vzeroupper
9:	movq	0(%rsp), %rsp
	cld
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	lockstep_residue_call, .-lockstep_residue_call

	.section .note.GNU-stack,"",@progbits
