/* SPDX-License-Identifier: MIT */
/*
 * arm64 SHA-256 glue of lockstep's miniature tree: the kernel's interface
 * (sha256_blocks, sha256_mod_init_arch) over a Crypto Extensions
 * "assembly" path in scoped_ksimd() sections, and the scalar code the
 * kernel's build generates with perl (sha256-core.S from sha2-armv8.pl)
 * where SIMD is unusable or the CPU lacks SHA-2.
 */
#include <asm/simd.h>
#include <linux/cpufeature.h>

static __ro_after_init DEFINE_STATIC_KEY_FALSE(mini_have_ce);

asmlinkage void sha256_block_data_order(struct sha256_block_state *state, const u8 *data, size_t nblocks);
asmlinkage void mini_sha256_ce(struct sha256_block_state *state, const u8 *data, size_t nblocks);

static void sha256_blocks(struct sha256_block_state *state, const u8 *data, size_t nblocks)
{
	if (static_branch_likely(&mini_have_ce) && may_use_simd()) {
		scoped_ksimd()
			mini_sha256_ce(state, data, nblocks);
	} else {
		sha256_block_data_order(state, data, nblocks);
	}
}

static void sha256_mod_init_arch(void)
{
	if (cpu_have_named_feature(SHA2))
		static_branch_enable(&mini_have_ce);
}
