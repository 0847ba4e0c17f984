// SPDX-License-Identifier: MIT
/*
 * The SHA-224/SHA-256 glue of lockstep's miniature of the older layout, in
 * the shape of the kernel's arch/x86/crypto/sha256_ssse3_glue.c: one shash
 * driver pair per instruction set, registered by the module's init where
 * the CPU has that set, the fastest at the highest priority; SIMD only
 * where it is usable, the generic code elsewhere.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/internal/hash.h>
#include <crypto/internal/simd.h>
#include <crypto/sha2.h>
#include <crypto/sha256_base.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <asm/cpu_device_id.h>
#include <asm/simd.h>

asmlinkage void sha256_transform_ssse3(struct sha256_state *state, const u8 *data, int blocks);
asmlinkage void sha256_transform_avx(struct sha256_state *state, const u8 *data, int blocks);
asmlinkage void sha256_transform_rorx(struct sha256_state *state, const u8 *data, int blocks);
asmlinkage void sha256_ni_transform(struct sha256_state *state, const u8 *data, int blocks);

static const struct x86_cpu_id module_cpu_ids[] = {
	X86_MATCH_FEATURE(X86_FEATURE_SHA_NI, NULL),
	X86_MATCH_FEATURE(X86_FEATURE_AVX2, NULL),
	X86_MATCH_FEATURE(X86_FEATURE_AVX, NULL),
	X86_MATCH_FEATURE(X86_FEATURE_SSSE3, NULL),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, module_cpu_ids);

/* Hands the data to the assembly at most 4 KiB a section: preemption is
 * off inside one. */
static void mini_sections(struct shash_desc *desc, const u8 *data, unsigned int len,
			  sha256_block_fn *xform)
{
	while (len > 0) {
		unsigned int chunk = min_t(unsigned int, len, SZ_4K);

		kernel_fpu_begin();
		sha256_base_do_update(desc, data, chunk, xform);
		kernel_fpu_end();
		data += chunk;
		len -= chunk;
	}
}

static int mini_update(struct shash_desc *desc, const u8 *data, unsigned int len,
		       sha256_block_fn *xform)
{
	struct sha256_state *sctx = shash_desc_ctx(desc);

	if (!crypto_simd_usable() || (sctx->count % SHA256_BLOCK_SIZE) + len < SHA256_BLOCK_SIZE)
		return crypto_sha256_update(desc, data, len);

	mini_sections(desc, data, len, xform);
	return 0;
}

static int mini_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out,
		      sha256_block_fn *xform)
{
	if (!crypto_simd_usable())
		return crypto_sha256_finup(desc, data, len, out);

	mini_sections(desc, data, len, xform);
	kernel_fpu_begin();
	sha256_base_do_finalize(desc, xform);
	kernel_fpu_end();
	return sha256_base_finish(desc, out);
}

/* The update, final and finup of one instruction set, and its two drivers. */
#define MINI_DRIVERS(isa, xform, prio)							\
static int sha256_##isa##_update(struct shash_desc *desc, const u8 *data,		\
				 unsigned int len)					\
{											\
	return mini_update(desc, data, len, xform);					\
}											\
static int sha256_##isa##_finup(struct shash_desc *desc, const u8 *data,		\
				unsigned int len, u8 *out)				\
{											\
	return mini_finup(desc, data, len, out, xform);					\
}											\
static int sha256_##isa##_final(struct shash_desc *desc, u8 *out)			\
{											\
	return sha256_##isa##_finup(desc, NULL, 0, out);				\
}											\
static struct shash_alg sha256_##isa##_algs[] = { {					\
	.digestsize	= SHA256_DIGEST_SIZE,						\
	.init		= sha256_base_init,						\
	.update		= sha256_##isa##_update,					\
	.final		= sha256_##isa##_final,						\
	.finup		= sha256_##isa##_finup,						\
	.descsize	= sizeof(struct sha256_state),					\
	.base		= {								\
		.cra_name	 = "sha256",						\
		.cra_driver_name = "sha256-" #isa,					\
		.cra_priority	 = prio,						\
		.cra_blocksize	 = SHA256_BLOCK_SIZE,					\
		.cra_module	 = THIS_MODULE,						\
	}										\
}, {											\
	.digestsize	= SHA224_DIGEST_SIZE,						\
	.init		= sha224_base_init,						\
	.update		= sha256_##isa##_update,					\
	.final		= sha256_##isa##_final,						\
	.finup		= sha256_##isa##_finup,						\
	.descsize	= sizeof(struct sha256_state),					\
	.base		= {								\
		.cra_name	 = "sha224",						\
		.cra_driver_name = "sha224-" #isa,					\
		.cra_priority	 = prio,						\
		.cra_blocksize	 = SHA224_BLOCK_SIZE,					\
		.cra_module	 = THIS_MODULE,						\
	}										\
} }

MINI_DRIVERS(ssse3, sha256_transform_ssse3, 150);
MINI_DRIVERS(avx, sha256_transform_avx, 160);
#ifdef CONFIG_AS_AVX2
MINI_DRIVERS(avx2, sha256_transform_rorx, 170);
#endif
#ifdef CONFIG_AS_SHA256_NI
MINI_DRIVERS(ni, sha256_ni_transform, 250);
#endif

static bool avx_usable(void)
{
	if (!cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL)) {
		if (boot_cpu_has(X86_FEATURE_AVX))
			pr_info("AVX detected but unusable.\n");
		return false;
	}
	return true;
}

static bool avx2_usable(void)
{
	return avx_usable() && boot_cpu_has(X86_FEATURE_AVX2) && boot_cpu_has(X86_FEATURE_BMI2);
}

/* Registers a pair where `usable`; unregisters the pairs before it if that fails. */
static int mini_register(struct shash_alg *algs, bool usable)
{
	return usable ? crypto_register_shashes(algs, 2) : 0;
}

static void mini_unregister(struct shash_alg *algs, bool usable)
{
	if (usable)
		crypto_unregister_shashes(algs, 2);
}

static int __init sha256_ssse3_mod_init(void)
{
	int err;

	if (!x86_match_cpu(module_cpu_ids))
		return -ENODEV;

	err = mini_register(sha256_ssse3_algs, boot_cpu_has(X86_FEATURE_SSSE3));
	if (err)
		return err;
	err = mini_register(sha256_avx_algs, avx_usable());
	if (err)
		goto fail_avx;
#ifdef CONFIG_AS_AVX2
	err = mini_register(sha256_avx2_algs, avx2_usable());
	if (err)
		goto fail_avx2;
#endif
#ifdef CONFIG_AS_SHA256_NI
	err = mini_register(sha256_ni_algs, boot_cpu_has(X86_FEATURE_SHA_NI));
	if (err)
		goto fail_ni;
#endif
	return 0;

#ifdef CONFIG_AS_SHA256_NI
fail_ni:
#endif
#ifdef CONFIG_AS_AVX2
	mini_unregister(sha256_avx2_algs, avx2_usable());
fail_avx2:
#endif
	mini_unregister(sha256_avx_algs, avx_usable());
fail_avx:
	mini_unregister(sha256_ssse3_algs, boot_cpu_has(X86_FEATURE_SSSE3));
	return err;
}

static void __exit sha256_ssse3_mod_fini(void)
{
#ifdef CONFIG_AS_SHA256_NI
	mini_unregister(sha256_ni_algs, boot_cpu_has(X86_FEATURE_SHA_NI));
#endif
#ifdef CONFIG_AS_AVX2
	mini_unregister(sha256_avx2_algs, avx2_usable());
#endif
	mini_unregister(sha256_avx_algs, avx_usable());
	mini_unregister(sha256_ssse3_algs, boot_cpu_has(X86_FEATURE_SSSE3));
}

module_init(sha256_ssse3_mod_init);
module_exit(sha256_ssse3_mod_fini);

MODULE_LICENSE("MIT");
MODULE_DESCRIPTION("SHA-224/SHA-256 of lockstep's miniature tree, SSSE3/AVX/AVX2/SHA-NI");
MODULE_ALIAS_CRYPTO("sha256");
MODULE_ALIAS_CRYPTO("sha224");
