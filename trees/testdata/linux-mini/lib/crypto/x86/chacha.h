/* SPDX-License-Identifier: MIT */
/*
 * ChaCha glue of lockstep's miniature tree: the kernel's interface
 * (chacha_crypt_arch, hchacha_block_arch, chacha_mod_init_arch) over three
 * "assembly" paths, one chosen at init by the boot CPU's features; one
 * block or less, and any call where SIMD is unusable, goes to the generic
 * code.
 */
#include <asm/fpu/api.h>
#include <linux/static_call.h>

asmlinkage void mini_chacha_ssse3(const struct chacha_state *state, u8 *dst, const u8 *src,
				  unsigned int len, int nrounds);
asmlinkage void mini_chacha_avx2(const struct chacha_state *state, u8 *dst, const u8 *src,
				 unsigned int len, int nrounds);
asmlinkage void mini_chacha_avx512vl(const struct chacha_state *state, u8 *dst, const u8 *src,
				     unsigned int len, int nrounds);
asmlinkage void mini_hchacha_ssse3(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS],
				   int nrounds);

static __ro_after_init DEFINE_STATIC_KEY_FALSE(mini_chacha_simd);
DEFINE_STATIC_CALL(mini_chacha_path, mini_chacha_ssse3);

static void hchacha_block_arch(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS], int nrounds)
{
	if (!static_branch_likely(&mini_chacha_simd) || !irq_fpu_usable()) {
		hchacha_block_generic(state, out, nrounds);
		return;
	}
	kernel_fpu_begin();
	mini_hchacha_ssse3(state, out, nrounds);
	kernel_fpu_end();
}

static void chacha_crypt_arch(struct chacha_state *state, u8 *dst, const u8 *src, unsigned int bytes,
			      int nrounds)
{
	if (!static_branch_likely(&mini_chacha_simd) || !irq_fpu_usable() || bytes <= CHACHA_BLOCK_SIZE)
		return chacha_crypt_generic(state, dst, src, bytes, nrounds);

	do {
		unsigned int todo = min_t(unsigned int, bytes, SZ_4K);

		kernel_fpu_begin();
		static_call(mini_chacha_path)(state, dst, src, todo, nrounds);
		kernel_fpu_end();
		state->x[12] += DIV_ROUND_UP(todo, CHACHA_BLOCK_SIZE);
		bytes -= todo;
		src += todo;
		dst += todo;
	} while (bytes);
}

static void chacha_mod_init_arch(void)
{
	if (!boot_cpu_has(X86_FEATURE_SSSE3))
		return;
	static_branch_enable(&mini_chacha_simd);
	if (boot_cpu_has(X86_FEATURE_AVX2) && cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL)) {
		if (boot_cpu_has(X86_FEATURE_AVX512VL) && boot_cpu_has(X86_FEATURE_AVX512BW))
			static_call_update(mini_chacha_path, mini_chacha_avx512vl);
		else
			static_call_update(mini_chacha_path, mini_chacha_avx2);
	}
}
