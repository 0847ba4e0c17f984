/* SPDX-License-Identifier: MIT */
/*
 * arm64 ChaCha glue of lockstep's miniature tree: the kernel's interface
 * (chacha_crypt_arch, hchacha_block_arch, chacha_mod_init_arch) over one
 * NEON "assembly" path, run in scoped_ksimd() sections of at most 4 KiB;
 * one block or less, and any call where SIMD is unusable, goes to the
 * generic code.
 */
#include <asm/simd.h>
#include <linux/jump_label.h>

asmlinkage void mini_chacha_neon(const struct chacha_state *state, u8 *dst, const u8 *src,
				 unsigned int len, int nrounds);

static __ro_after_init DEFINE_STATIC_KEY_FALSE(mini_have_neon);

static void hchacha_block_arch(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS], int nrounds)
{
	hchacha_block_generic(state, out, nrounds);
}

static void chacha_crypt_arch(struct chacha_state *state, u8 *dst, const u8 *src, unsigned int bytes,
			      int nrounds)
{
	if (!static_branch_likely(&mini_have_neon) || bytes <= CHACHA_BLOCK_SIZE || !crypto_simd_usable())
		return chacha_crypt_generic(state, dst, src, bytes, nrounds);

	do {
		unsigned int todo = min_t(unsigned int, bytes, SZ_4K);

		scoped_ksimd()
			mini_chacha_neon(state, dst, src, todo, nrounds);
		state->x[12] += DIV_ROUND_UP(todo, CHACHA_BLOCK_SIZE);
		bytes -= todo;
		src += todo;
		dst += todo;
	} while (bytes);
}

static void chacha_mod_init_arch(void)
{
	if (cpu_have_named_feature(ASIMD))
		static_branch_enable(&mini_have_neon);
}
