/* The kernel-style glue of kernel_env_test (glue.c), as C++ sees it. */
#ifndef LOCKSTEP_KERNEL_ENV_GLUE_H
#define LOCKSTEP_KERNEL_ENV_GLUE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct glue_counts {
	size_t generic, simd;
};

void glue_mod_init(void);
void glue_reset(void);
bool glue_have_simd(void);
void glue_blocks(struct glue_counts *c, size_t nblocks);
/* Sets the control word (MXCSR, arm64 FPCR) to `outside`, opens a section,
 * reads it there, changes it and closes the section: returns what it read
 * inside; glue_control_word() afterwards shows what the end restored. */
unsigned glue_control_word_in_section(unsigned outside);
unsigned glue_control_word(void);
void glue_nested_section(void);
void glue_end_without_begin(void);
/* A section with a yield point in it: two sections, none left open. */
void glue_yield_in_section(void);
/* x86-64: one simulated entry into the kernel with two sections, then the
 * return to user space. The "user" sets MXCSR to mxcsr_user and ymm15 (ymm:
 * the CPU has AVX; else xmm15) to `user`; each section records the MXCSR it
 * was handed, rounds down and writes `section` to the register; what the
 * user sees after the ends and after the return is recorded. */
struct glue_entry {
	unsigned mxcsr_user;
	bool ymm;
	unsigned char user[32], section[32];
	unsigned mxcsr_inside[2], mxcsr_after_ends, mxcsr_after_return;
	unsigned char after_ends[32], after_return[32];
};
void glue_entry_two_sections(struct glue_entry *e);
/* A section still open at the return to user space. */
void glue_return_inside_section(void);
/* boot_cpu_data's family, model and vendor number (x86; zeros elsewhere). */
void glue_boot_cpu(unsigned *family, unsigned *model, unsigned *vendor);
int glue_kconfig_set(void);
int glue_kconfig_unset(void);
size_t glue_round_up(size_t x, size_t to);
size_t glue_div_round_up(size_t n, size_t d);

#ifdef __cplusplus
}
#endif

#endif
