/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 glue of lockstep's miniature tree: the kernel's interface
 * (sha256_blocks, sha256_finup_2x_arch, sha256_mod_init_arch) over four
 * "assembly" paths and the Zhaoxin hash engine, one chosen at init by the
 * boot CPU's features and family.
 */
#include <asm/fpu/api.h>
#include <linux/static_call.h>

asmlinkage void mini_sha256_ssse3(struct sha256_block_state *state, const u8 *data, size_t nblocks);
asmlinkage void mini_sha256_avx(struct sha256_block_state *state, const u8 *data, size_t nblocks);
asmlinkage void mini_sha256_avx2_bmi2(struct sha256_block_state *state, const u8 *data, size_t nblocks);
asmlinkage void mini_sha256_shani(struct sha256_block_state *state, const u8 *data, size_t nblocks);

/*
 * The Zhaoxin hash engine: REP XSHA256 (F3 0F A6 D0) hashes RCX whole
 * blocks at RSI into the state at RDI (32 bytes, 16-byte aligned) when RAX
 * is all ones.
 */
static void mini_sha256_phe(struct sha256_block_state *state, const u8 *data, size_t nblocks)
{
	u8 room[SHA256_DIGEST_SIZE + 15];
	u8 *h = PTR_ALIGN(&room[0], 16);
	unsigned long whole_blocks = ~0UL;

	memcpy(h, state, SHA256_DIGEST_SIZE);
	asm volatile(".byte 0xf3, 0x0f, 0xa6, 0xd0"
		     : "+a"(whole_blocks), "+c"(nblocks), "+S"(data)
		     : "D"(h)
		     : "memory");
	memcpy(state, h, SHA256_DIGEST_SIZE);
}

static __ro_after_init DEFINE_STATIC_KEY_FALSE(mini_simd);
DEFINE_STATIC_CALL(mini_sha256_path, mini_sha256_ssse3);

/* SIMD code runs in a section of at most 4 KiB, generic code elsewhere. */
static void mini_blocks_simd(struct sha256_block_state *state, const u8 *data, size_t nblocks)
{
	while (nblocks) {
		size_t n = min_t(size_t, nblocks, SZ_4K / SHA256_BLOCK_SIZE);

		if (!irq_fpu_usable()) {
			sha256_blocks_generic(state, data, n);
		} else {
			kernel_fpu_begin();
			static_call(mini_sha256_path)(state, data, n);
			kernel_fpu_end();
		}
		data += n * SHA256_BLOCK_SIZE;
		nblocks -= n;
	}
}

DEFINE_STATIC_CALL(mini_sha256_blocks, sha256_blocks_generic);

static void sha256_blocks(struct sha256_block_state *state, const u8 *data, size_t nblocks)
{
	static_call(mini_sha256_blocks)(state, data, nblocks);
}

/* The miniature has no 2-way code: it declines, and the caller finishes
 * the two messages one at a time. */
#define sha256_finup_2x_arch sha256_finup_2x_arch
static bool sha256_finup_2x_arch(const struct __sha256_ctx *ctx, const u8 *data1,
				 const u8 *data2, size_t len, u8 out1[SHA256_DIGEST_SIZE],
				 u8 out2[SHA256_DIGEST_SIZE])
{
	(void)ctx, (void)data1, (void)data2, (void)len, (void)out1, (void)out2;
	return false;
}

static void sha256_mod_init_arch(void)
{
	const bool ymm = cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);

	if (boot_cpu_has(X86_FEATURE_SHA_NI))
		static_call_update(mini_sha256_path, mini_sha256_shani);
	else if (IS_ENABLED(CONFIG_CPU_SUP_ZHAOXIN) && boot_cpu_has(X86_FEATURE_PHE_EN) &&
		 boot_cpu_data.x86 >= 0x07)
		static_call_update(mini_sha256_path, mini_sha256_phe);
	else if (ymm && boot_cpu_has(X86_FEATURE_AVX2) && boot_cpu_has(X86_FEATURE_BMI2))
		static_call_update(mini_sha256_path, mini_sha256_avx2_bmi2);
	else if (ymm && boot_cpu_has(X86_FEATURE_AVX))
		static_call_update(mini_sha256_path, mini_sha256_avx);
	else if (!boot_cpu_has(X86_FEATURE_SSSE3))
		return;
	static_call_update(mini_sha256_blocks, mini_blocks_simd);
	static_branch_enable(&mini_simd);
}
