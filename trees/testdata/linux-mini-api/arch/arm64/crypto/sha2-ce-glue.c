// SPDX-License-Identifier: MIT
/*
 * The SHA-224/SHA-256 glue of lockstep's miniature of the older arm64
 * layout, in the shape of the kernel's arch/arm64/crypto/sha2-ce-glue.c:
 * the Crypto Extensions transform, which can also finish the message
 * itself (the padding block) when the glue says so, registered where the
 * CPU has SHA2; the scalar code where SIMD may not be used.
 */
#include <asm/neon.h>
#include <asm/simd.h>
#include <crypto/internal/hash.h>
#include <crypto/internal/simd.h>
#include <crypto/sha2.h>
#include <crypto/sha256_base.h>
#include <linux/cpufeature.h>
#include <linux/module.h>

struct sha256_ce_state {
	struct sha256_state sst;
	u32 finalize;
};

extern const u32 sha256_ce_offsetof_count;
extern const u32 sha256_ce_offsetof_finalize;

asmlinkage int sha2_ce_transform(struct sha256_ce_state *sst, u8 const *src, int blocks);

static void mini_ce_blocks(struct sha256_state *sst, u8 const *src, int blocks)
{
	kernel_neon_begin();
	sha2_ce_transform(container_of(sst, struct sha256_ce_state, sst), src, blocks);
	kernel_neon_end();
}

/* Where the assembly finds the byte count and the flag. */
const u32 sha256_ce_offsetof_count = offsetof(struct sha256_ce_state, sst.count);
const u32 sha256_ce_offsetof_finalize = offsetof(struct sha256_ce_state, finalize);

static int mini_ce_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	struct sha256_ce_state *sctx = shash_desc_ctx(desc);

	if (!crypto_simd_usable())
		return crypto_sha256_update(desc, data, len);
	sctx->finalize = 0;
	sha256_base_do_update(desc, data, len, mini_ce_blocks);
	return 0;
}

static int mini_ce_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	struct sha256_ce_state *sctx = shash_desc_ctx(desc);
	/* The assembly pads the message itself when the whole of it is this
	 * call's data, in whole blocks, and there is some. */
	bool finalize = !sctx->sst.count && !(len % SHA256_BLOCK_SIZE) && len;

	if (!crypto_simd_usable())
		return crypto_sha256_finup(desc, data, len, out);
	sctx->finalize = finalize;
	sha256_base_do_update(desc, data, len, mini_ce_blocks);
	if (!finalize)
		sha256_base_do_finalize(desc, mini_ce_blocks);
	return sha256_base_finish(desc, out);
}

static int mini_ce_final(struct shash_desc *desc, u8 *out)
{
	struct sha256_ce_state *sctx = shash_desc_ctx(desc);

	if (!crypto_simd_usable())
		return crypto_sha256_finup(desc, NULL, 0, out);
	sctx->finalize = 0;
	sha256_base_do_finalize(desc, mini_ce_blocks);
	return sha256_base_finish(desc, out);
}

static int mini_ce_export(struct shash_desc *desc, void *out)
{
	struct sha256_ce_state *sctx = shash_desc_ctx(desc);

	memcpy(out, &sctx->sst, sizeof(struct sha256_state));
	return 0;
}

static int mini_ce_import(struct shash_desc *desc, const void *in)
{
	struct sha256_ce_state *sctx = shash_desc_ctx(desc);

	memcpy(&sctx->sst, in, sizeof(struct sha256_state));
	sctx->finalize = 0;
	return 0;
}

static struct shash_alg algs[] = { {
	.init		= sha224_base_init,
	.update		= mini_ce_update,
	.final		= mini_ce_final,
	.finup		= mini_ce_finup,
	.export		= mini_ce_export,
	.import		= mini_ce_import,
	.descsize	= sizeof(struct sha256_ce_state),
	.statesize	= sizeof(struct sha256_state),
	.digestsize	= SHA224_DIGEST_SIZE,
	.base		= {
		.cra_name	 = "sha224",
		.cra_driver_name = "sha224-ce",
		.cra_priority	 = 200,
		.cra_blocksize	 = SHA256_BLOCK_SIZE,
		.cra_module	 = THIS_MODULE,
	}
}, {
	.init		= sha256_base_init,
	.update		= mini_ce_update,
	.final		= mini_ce_final,
	.finup		= mini_ce_finup,
	.export		= mini_ce_export,
	.import		= mini_ce_import,
	.descsize	= sizeof(struct sha256_ce_state),
	.statesize	= sizeof(struct sha256_state),
	.digestsize	= SHA256_DIGEST_SIZE,
	.base		= {
		.cra_name	 = "sha256",
		.cra_driver_name = "sha256-ce",
		.cra_priority	 = 200,
		.cra_blocksize	 = SHA256_BLOCK_SIZE,
		.cra_module	 = THIS_MODULE,
	}
} };

static int __init sha2_ce_mod_init(void)
{
	return crypto_register_shashes(algs, ARRAY_SIZE(algs));
}

static void __exit sha2_ce_mod_fini(void)
{
	crypto_unregister_shashes(algs, ARRAY_SIZE(algs));
}

module_cpu_feature_match(SHA2, sha2_ce_mod_init);
module_exit(sha2_ce_mod_fini);

MODULE_LICENSE("MIT");
MODULE_DESCRIPTION("SHA-224/SHA-256 of lockstep's miniature tree, ARMv8 Crypto Extensions");
