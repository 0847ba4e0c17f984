/*
 * Byte offsets into the block of registers a trampoline loads before the
 * call and fills in after it. The assembly includes this file (it is only
 * #defines, so the preprocessor is all that reads it), and abi_check.cpp
 * static_asserts its structs against the same numbers: the two sides cannot
 * drift apart silently.
 */
#ifndef LOCKSTEP_ABI_TRAMPOLINE_LAYOUT_H
#define LOCKSTEP_ABI_TRAMPOLINE_LAYOUT_H

/* x86-64 System V. The six callee-saved general registers, in the order
 * rbx rbp r12 r13 r14 r15, first as loaded, then as found afterwards. */
#define X86_IN_GPR 0
#define X86_OUT_GPR 48
#define X86_RSP_BEFORE 96   /* rsp at the call instruction */
#define X86_RSP_AFTER 104   /* rsp once the callee returned */
#define X86_RFLAGS_AFTER 112
#define X86_XINUSE_BEFORE 120 /* XGETBV(1), after vzeroupper, before the call */
#define X86_XINUSE_AFTER 128
#define X86_MXCSR_BEFORE 136
#define X86_MXCSR_AFTER 140
#define X86_FCW_BEFORE 144
#define X86_FCW_AFTER 146
#define X86_FLAGS 148       /* what the trampoline may do on this CPU: */
#define X86_FLAG_VZEROUPPER 1 /*   the CPU has AVX: vzeroupper before the call */
#define X86_FLAG_XINUSE 2   /*   XGETBV with ECX=1 works: read XINUSE */
#define X86_SIZE 152

/* AArch64 (AAPCS64). x19..x29, then d8..d15 (the low halves of v8..v15),
 * as loaded and as found afterwards. */
#define A64_IN_X 0
#define A64_IN_D 88
#define A64_OUT_X 152
#define A64_OUT_D 240
#define A64_SP_BEFORE 304
#define A64_SP_AFTER 312
#define A64_SIZE 320

#endif
