/*
 * Assembler macros (GNU as) for AArch64 .S files: the registers AAPCS64
 * asks a callee to preserve, x19-x28 and d8-d15 (the low halves of
 * v8-v15), stored to and loaded back from the 144 bytes at [base, #at], in
 * that order, a pair per stp/ldp. x29 and x30 are not among them: the
 * frame record keeps those. Used where a function must give them back
 * whatever it runs: the residue check's stack switch
 * (residue/aarch64_stack_call.S) and the well-behaved control of the ABI
 * test (abi/testdata/clobber_aarch64.S).
 */
#ifndef LOCKSTEP_ABI_AAPCS64_CALLEE_SAVED_H
#define LOCKSTEP_ABI_AAPCS64_CALLEE_SAVED_H

/* The pairs in order, each through `op`: stp or ldp. */
.macro	aapcs64_callee_saved_pairs op, base, at
	\op	x19, x20, [\base, #\at]
	\op	x21, x22, [\base, #\at + 16]
	\op	x23, x24, [\base, #\at + 32]
	\op	x25, x26, [\base, #\at + 48]
	\op	x27, x28, [\base, #\at + 64]
	\op	d8, d9, [\base, #\at + 80]
	\op	d10, d11, [\base, #\at + 96]
	\op	d12, d13, [\base, #\at + 112]
	\op	d14, d15, [\base, #\at + 128]
.endm

.macro	aapcs64_save_callee_saved base, at
	aapcs64_callee_saved_pairs stp, \base, \at
.endm

.macro	aapcs64_restore_callee_saved base, at
	aapcs64_callee_saved_pairs ldp, \base, \at
.endm

#endif
