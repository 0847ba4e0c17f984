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
