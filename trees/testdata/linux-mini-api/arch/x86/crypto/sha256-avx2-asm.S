/* SPDX-License-Identifier: MIT */
/*
 * sha256_transform_rorx(state, data, int blocks) of lockstep's miniature of
 * the older layout: SHA-256 itself (FIPS 180-4, 6.2.2), one block at a time
 * in general-purpose registers, its rotations BMI2's rorx, and written in
 * the kernel's code model as the older kernels' file is: the round
 * constants are addressed as K256(,index,4), a 32-bit absolute address,
 * which a shared object cannot hold. It touches a ymm register, so it
 * leaves with vzeroupper. Built where the assembler knows AVX2, as the
 * kernel's build says with CONFIG_AS_AVX2.
 */
#include <linux/linkage.h>

#ifdef CONFIG_AS_AVX2

#define STATE	%rdi
#define DATA	%rsi
#define I	%rcx
#define A	%r8d
#define B	%r9d
#define C	%r10d
#define D	%r11d
#define E	%r12d
#define F	%r13d
#define G	%r14d
#define H	%r15d
#define BLOCKS	256(%rsp)

.text
SYM_FUNC_START(sha256_transform_rorx)
	testl	%edx, %edx
	jle	.Ldone
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$264, %rsp
	movl	%edx, BLOCKS
	vpaddd	%ymm1, %ymm0, %ymm0

.Lblock:
	/* W[0..15]: the block, big-endian words. */
	xorl	%ecx, %ecx
.Lload:
	movl	(DATA,I,4), %eax
	bswapl	%eax
	movl	%eax, (%rsp,I,4)
	incl	%ecx
	cmpl	$16, %ecx
	jne	.Lload
	/* W[16..63]. */
.Lexpand:
	movl	-60(%rsp,I,4), %eax
	rorxl	$7, %eax, %ebx
	rorxl	$18, %eax, %ebp
	xorl	%ebp, %ebx
	shrl	$3, %eax
	xorl	%eax, %ebx
	movl	-8(%rsp,I,4), %eax
	rorxl	$17, %eax, %ebp
	rorxl	$19, %eax, %edx
	xorl	%edx, %ebp
	shrl	$10, %eax
	xorl	%eax, %ebp
	addl	-64(%rsp,I,4), %ebx
	addl	-28(%rsp,I,4), %ebx
	addl	%ebp, %ebx
	movl	%ebx, (%rsp,I,4)
	incl	%ecx
	cmpl	$64, %ecx
	jne	.Lexpand

	movl	0*4(STATE), A
	movl	1*4(STATE), B
	movl	2*4(STATE), C
	movl	3*4(STATE), D
	movl	4*4(STATE), E
	movl	5*4(STATE), F
	movl	6*4(STATE), G
	movl	7*4(STATE), H
	xorl	%ecx, %ecx
.Lround:
	/* t1 = h + S1(e) + Ch(e, f, g) + K[i] + W[i] */
	rorxl	$6, E, %eax
	rorxl	$11, E, %ebx
	xorl	%ebx, %eax
	rorxl	$25, E, %ebx
	xorl	%ebx, %eax
	movl	E, %ebx
	andl	F, %ebx
	movl	E, %ebp
	notl	%ebp
	andl	G, %ebp
	xorl	%ebp, %ebx
	addl	H, %eax
	addl	%ebx, %eax
	addl	K256(,I,4), %eax
	addl	(%rsp,I,4), %eax
	/* t2 = S0(a) + Maj(a, b, c) */
	rorxl	$2, A, %ebx
	rorxl	$13, A, %ebp
	xorl	%ebp, %ebx
	rorxl	$22, A, %ebp
	xorl	%ebp, %ebx
	movl	B, %ebp
	orl	C, %ebp
	andl	A, %ebp
	movl	B, %edx
	andl	C, %edx
	orl	%edx, %ebp
	addl	%ebp, %ebx
	movl	G, H
	movl	F, G
	movl	E, F
	movl	D, E
	addl	%eax, E
	movl	C, D
	movl	B, C
	movl	A, B
	movl	%eax, A
	addl	%ebx, A
	incl	%ecx
	cmpl	$64, %ecx
	jne	.Lround

	addl	A, 0*4(STATE)
	addl	B, 1*4(STATE)
	addl	C, 2*4(STATE)
	addl	D, 3*4(STATE)
	addl	E, 4*4(STATE)
	addl	F, 5*4(STATE)
	addl	G, 6*4(STATE)
	addl	H, 7*4(STATE)
	addq	$64, DATA
	decl	BLOCKS
	jnz	.Lblock

	vzeroupper
	addq	$264, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
.Ldone:
	RET
SYM_FUNC_END(sha256_transform_rorx)

.section .rodata.cst256.K256, "aM", @progbits, 256
.align 64
K256:
	.long	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
	.long	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
	.long	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
	.long	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
	.long	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
	.long	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
	.long	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
	.long	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2

#endif
