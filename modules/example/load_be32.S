/*
 * example_load_be32(const u8 *p): the big-endian word at p. Kernel-style
 * assembly: the linkage macros and RET come from lockstep/kernel_compat.h.
 */
	.text
SYM_FUNC_START(example_load_be32)
#if defined(__x86_64__)
	movl	(%rdi), %eax
	bswapl	%eax
#elif defined(__aarch64__)
	ldr	w0, [x0]
	rev	w0, w0
#else
#error "the example's assembly is for x86-64 and arm64"
#endif
	RET
SYM_FUNC_END(example_load_be32)
	.section .note.GNU-stack, "", %progbits
