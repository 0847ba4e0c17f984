/*
 * A glue file in the shape of the kernel's lib/crypto/<arch>/<algorithm>.h, built with
 * lockstep's kernel environment (-include lockstep/kernel_compat.h and
 * include/lockstep/kernel on the include path), for kernel_env_test. Its
 * "block functions" only count what reached them: the test is about the
 * environment, not the arithmetic.
 */
#include <asm/simd.h>
#include <linux/kernel.h>
#include <linux/static_call.h>
#ifdef __x86_64__
#include <asm/fpu/api.h>
#include <immintrin.h>
#else
#include <asm/neon.h>
#endif

#include "glue.h"

static_assert(offsetof(struct __sha256_ctx, state) == 0);
static_assert(offsetof(struct __sha256_ctx, bytecount) == 32);
static_assert(offsetof(struct __sha256_ctx, buf) == 40);

static void blocks_generic(struct glue_counts *c, size_t nblocks) { c->generic += nblocks; }
static void blocks_simd(struct glue_counts *c, size_t nblocks) { c->simd += nblocks; }

static __ro_after_init DEFINE_STATIC_KEY_FALSE(have_simd);
DEFINE_STATIC_CALL(glue_blocks_arch, blocks_generic);

static void blocks_simd_or_generic(struct glue_counts *c, size_t nblocks)
{
	if (likely(may_use_simd())) {
#ifdef __x86_64__
		kernel_fpu_begin();
		blocks_simd(c, nblocks);
		kernel_fpu_end();
#else
		kernel_neon_begin();
		blocks_simd(c, nblocks);
		kernel_neon_end();
#endif
	} else {
		blocks_generic(c, nblocks);
	}
}

void glue_mod_init(void)
{
#ifdef __x86_64__
	if (boot_cpu_has(X86_FEATURE_AVX2) && boot_cpu_has(X86_FEATURE_BMI2) &&
	    cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL)) {
#else
	if (cpu_have_named_feature(SHA2)) {
#endif
		static_call_update(glue_blocks_arch, blocks_simd_or_generic);
		static_branch_enable(&have_simd);
	}
}

/* The init again, from the start: the tests run it under several CPUs. */
void glue_reset(void)
{
	static_branch_disable(&have_simd);
	static_call_update(glue_blocks_arch, blocks_generic);
}

bool glue_have_simd(void) { return static_key_enabled(&have_simd); }

void glue_blocks(struct glue_counts *c, size_t nblocks)
{
	/* The kernel's glue splits SIMD work into 4 KiB chunks. */
	while (nblocks) {
		size_t n = min_t(size_t, nblocks, SZ_4K / SHA256_BLOCK_SIZE);
		static_call(glue_blocks_arch)(c, n);
		nblocks -= n;
	}
}

unsigned glue_control_word_in_section(unsigned outside)
{
	unsigned inside;
#ifdef __x86_64__
	_mm_setcsr(outside);
	kernel_fpu_begin();
	inside = _mm_getcsr();
	_mm_setcsr(inside ^ 0x2000); /* round down; the end restores */
	kernel_fpu_end();
#else
	unsigned long fpcr = outside;
	__asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
	kernel_neon_begin();
	__asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
	inside = (unsigned)fpcr;
	fpcr ^= 3ul << 22; /* another rounding mode; the end restores */
	__asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
	kernel_neon_end();
#endif
	return inside;
}

unsigned glue_control_word(void)
{
#ifdef __x86_64__
	return _mm_getcsr();
#else
	unsigned long fpcr;
	__asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
	return (unsigned)fpcr;
#endif
}

void glue_nested_section(void)
{
	kernel_fpu_begin();
	kernel_fpu_begin();
}

void glue_end_without_begin(void) { kernel_fpu_end(); }

/* An older arm64 NEON loop's yield point (do_cond_yield_neon) inside a
 * section, as its assembly makes it: the C side of the macro. */
void glue_yield_in_section(void)
{
	kernel_neon_begin();
	lockstep_kernel_neon_yield();
	kernel_neon_end();
}

int glue_kconfig_set(void) { return IS_ENABLED(CONFIG_LOCKSTEP_TEST_SET); }

void glue_boot_cpu(unsigned *family, unsigned *model, unsigned *vendor)
{
#ifdef __x86_64__
	*family = boot_cpu_data.x86;
	*model = boot_cpu_data.x86_model;
	*vendor = boot_cpu_data.x86_vendor;
#else
	*family = *model = *vendor = 0;
#endif
}
int glue_kconfig_unset(void) { return IS_ENABLED(CONFIG_LOCKSTEP_TEST_UNSET); }
size_t glue_round_up(size_t x, size_t to) { return round_up(x, to); }
size_t glue_div_round_up(size_t n, size_t d) { return DIV_ROUND_UP(n, d); }

#ifdef __x86_64__
/* The host's side of a system call's return (host/kernel_sections.c),
 * called here with nothing between it and the registers it puts back. */
void lockstep_kernel_return_to_user(void);

/* The vector register the entry below watches: ymm15 where the CPU has AVX
 * (so its upper half is watched too), else xmm15. Nothing else here or in
 * the section code touches it. */
static void put_v15(const unsigned char *v, bool ymm)
{
	if (ymm)
		__asm__ volatile("vmovdqu %0, %%ymm15" : : "m"(*(const unsigned char(*)[32])v) : "xmm15");
	else
		__asm__ volatile("movdqu %0, %%xmm15" : : "m"(*(const unsigned char(*)[16])v) : "xmm15");
}

static void get_v15(unsigned char *v, bool ymm)
{
	if (ymm)
		__asm__ volatile("vmovdqu %%ymm15, %0" : "=m"(*(unsigned char(*)[32])v));
	else
		__asm__ volatile("movdqu %%xmm15, %0" : "=m"(*(unsigned char(*)[16])v));
}

void glue_entry_two_sections(struct glue_entry *e)
{
	_mm_setcsr(e->mxcsr_user);
	put_v15(e->user, e->ymm);
	for (int i = 0; i < 2; ++i) {
		kernel_fpu_begin();
		e->mxcsr_inside[i] = _mm_getcsr();
		_mm_setcsr(e->mxcsr_inside[i] ^ 0x2000); /* round down */
		put_v15(e->section, e->ymm);
		if (e->ymm)
			__asm__ volatile("vzeroupper"); /* as AVX code in the kernel ends */
		kernel_fpu_end();
	}
	e->mxcsr_after_ends = _mm_getcsr();
	get_v15(e->after_ends, e->ymm);
	lockstep_kernel_return_to_user();
	e->mxcsr_after_return = _mm_getcsr();
	get_v15(e->after_return, e->ymm);
}

void glue_return_inside_section(void)
{
	kernel_fpu_begin();
	lockstep_kernel_return_to_user();
}
#endif
