/*
 * <linux/linkage.h> in lockstep's U-Boot environment: U-Boot's older names
 * for a global function symbol, typed and sized as its own header makes it.
 */
#ifndef LOCKSTEP_UBOOT_LINKAGE_H
#define LOCKSTEP_UBOOT_LINKAGE_H
#ifdef __ASSEMBLER__
#define ALIGN .p2align 4
#define ENTRY(name)                                                            \
	.globl name;                                                           \
	ALIGN;                                                                 \
	name:
#define END(name) .size name, .-name
#define ENDPROC(name)                                                          \
	.type name, %function;                                                 \
	END(name)
#endif
#endif
