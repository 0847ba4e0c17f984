// SPDX-License-Identifier: MIT
/*
 * The SHA-224/SHA-256 library of lockstep's miniature tree, in the shape of
 * the kernel's lib/crypto/sha256.c: a generic block function, the
 * architecture's blocks behind sha256_blocks() ("sha256.h", from
 * lib/crypto/$(SRCARCH)), contexts, HMAC with prepared keys, and a 2-way
 * finup that falls back to one message at a time.
 */
#include <crypto/hmac.h>
#include <crypto/sha2.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/wordpart.h>

static const struct sha256_block_state sha224_iv = {
	.h = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4},
};
static const struct sha256_block_state sha256_iv = {
	.h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19},
};

static const u32 sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define Ch(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define Maj(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define e0(x) (ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22))
#define e1(x) (ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25))
#define s0(x) (ror32(x, 7) ^ ror32(x, 18) ^ ((x) >> 3))
#define s1(x) (ror32(x, 17) ^ ror32(x, 19) ^ ((x) >> 10))

/* The miniature's "assembly" files hand their blocks here. */
void sha256_blocks_generic(struct sha256_block_state *state, const u8 *data, size_t nblocks)
{
	u32 W[64];

	do {
		u32 a = state->h[0], b = state->h[1], c = state->h[2], d = state->h[3];
		u32 e = state->h[4], f = state->h[5], g = state->h[6], h = state->h[7];

		for (int i = 0; i < 64; i++) {
			u32 t1, t2;

			W[i] = i < 16 ? get_unaligned_be32(data + 4 * i)
				      : s1(W[i - 2]) + W[i - 7] + s0(W[i - 15]) + W[i - 16];
			t1 = h + e1(e) + Ch(e, f, g) + sha256_k[i] + W[i];
			t2 = e0(a) + Maj(a, b, c);
			h = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + t2;
		}
		state->h[0] += a;
		state->h[1] += b;
		state->h[2] += c;
		state->h[3] += d;
		state->h[4] += e;
		state->h[5] += f;
		state->h[6] += g;
		state->h[7] += h;
		data += SHA256_BLOCK_SIZE;
	} while (--nblocks);
	memzero_explicit(W, sizeof(W));
}

#include "sha256.h" /* $(SRCARCH)/sha256.h */

static void __sha256_init(struct __sha256_ctx *ctx, const struct sha256_block_state *iv,
			  u64 initial_bytecount)
{
	ctx->state = *iv;
	ctx->bytecount = initial_bytecount;
}

void sha224_init(struct sha224_ctx *ctx)
{
	__sha256_init(&ctx->ctx, &sha224_iv, 0);
}
EXPORT_SYMBOL_GPL(sha224_init);

void sha256_init(struct sha256_ctx *ctx)
{
	__sha256_init(&ctx->ctx, &sha256_iv, 0);
}
EXPORT_SYMBOL_GPL(sha256_init);

void __sha256_update(struct __sha256_ctx *ctx, const u8 *data, size_t len)
{
	size_t partial = ctx->bytecount % SHA256_BLOCK_SIZE;

	ctx->bytecount += len;
	if (partial + len >= SHA256_BLOCK_SIZE) {
		size_t nblocks;

		if (partial) {
			size_t l = SHA256_BLOCK_SIZE - partial;

			memcpy(&ctx->buf[partial], data, l);
			data += l;
			len -= l;
			sha256_blocks(&ctx->state, ctx->buf, 1);
		}
		nblocks = len / SHA256_BLOCK_SIZE;
		len %= SHA256_BLOCK_SIZE;
		if (nblocks) {
			sha256_blocks(&ctx->state, data, nblocks);
			data += nblocks * SHA256_BLOCK_SIZE;
		}
		partial = 0;
	}
	if (len)
		memcpy(&ctx->buf[partial], data, len);
}
EXPORT_SYMBOL(__sha256_update);

static void __sha256_final(struct __sha256_ctx *ctx, u8 *out, size_t digest_size)
{
	u64 bitcount = ctx->bytecount << 3;
	size_t partial = ctx->bytecount % SHA256_BLOCK_SIZE;

	ctx->buf[partial++] = 0x80;
	if (partial > SHA256_BLOCK_SIZE - 8) {
		memset(&ctx->buf[partial], 0, SHA256_BLOCK_SIZE - partial);
		sha256_blocks(&ctx->state, ctx->buf, 1);
		partial = 0;
	}
	memset(&ctx->buf[partial], 0, SHA256_BLOCK_SIZE - 8 - partial);
	put_unaligned_be64(bitcount, &ctx->buf[SHA256_BLOCK_SIZE - 8]);
	sha256_blocks(&ctx->state, ctx->buf, 1);
	for (size_t i = 0; i < digest_size; i += 4)
		put_unaligned_be32(ctx->state.h[i / 4], out + i);
	memzero_explicit(ctx, sizeof(*ctx));
}

void sha224_final(struct sha224_ctx *ctx, u8 out[SHA224_DIGEST_SIZE])
{
	__sha256_final(&ctx->ctx, out, SHA224_DIGEST_SIZE);
}
EXPORT_SYMBOL(sha224_final);

void sha256_final(struct sha256_ctx *ctx, u8 out[SHA256_DIGEST_SIZE])
{
	__sha256_final(&ctx->ctx, out, SHA256_DIGEST_SIZE);
}
EXPORT_SYMBOL(sha256_final);

void sha224(const u8 *data, size_t len, u8 out[SHA224_DIGEST_SIZE])
{
	struct sha224_ctx ctx;

	sha224_init(&ctx);
	sha224_update(&ctx, data, len);
	sha224_final(&ctx, out);
}
EXPORT_SYMBOL(sha224);

void sha256(const u8 *data, size_t len, u8 out[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, out);
}
EXPORT_SYMBOL(sha256);

#ifndef sha256_finup_2x_arch
static bool sha256_finup_2x_arch(const struct __sha256_ctx *ctx, const u8 *data1, const u8 *data2, size_t len,
				 u8 out1[SHA256_DIGEST_SIZE], u8 out2[SHA256_DIGEST_SIZE])
{
	return false;
}
#endif

/* One message at a time, where the architecture has no 2-way code or
 * declines these arguments. */
static noinline_for_stack void sha256_finup_2x_sequential(const struct __sha256_ctx *ctx, const u8 *data1,
							  const u8 *data2, size_t len,
							  u8 out1[SHA256_DIGEST_SIZE],
							  u8 out2[SHA256_DIGEST_SIZE])
{
	struct __sha256_ctx mut_ctx;

	mut_ctx = *ctx;
	__sha256_update(&mut_ctx, data1, len);
	__sha256_final(&mut_ctx, out1, SHA256_DIGEST_SIZE);

	mut_ctx = *ctx;
	__sha256_update(&mut_ctx, data2, len);
	__sha256_final(&mut_ctx, out2, SHA256_DIGEST_SIZE);
}

void sha256_finup_2x(const struct sha256_ctx *ctx, const u8 *data1, const u8 *data2, size_t len,
		     u8 out1[SHA256_DIGEST_SIZE], u8 out2[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx initial;

	if (ctx == NULL) {
		sha256_init(&initial);
		ctx = &initial;
	}
	if (sha256_finup_2x_arch(&ctx->ctx, data1, data2, len, out1, out2))
		return;
	sha256_finup_2x_sequential(&ctx->ctx, data1, data2, len, out1, out2);
}
EXPORT_SYMBOL_GPL(sha256_finup_2x);

bool sha256_finup_2x_is_optimized(void)
{
	return false;
}
EXPORT_SYMBOL_GPL(sha256_finup_2x_is_optimized);

/* The inner and outer states of a key: a key longer than a block is hashed
 * down first (RFC 2104). */
static void __hmac_sha256_preparekey(struct __hmac_sha256_key *key, const u8 *raw_key, size_t raw_key_len,
				     const struct sha256_block_state *iv)
{
	u8 block[SHA256_BLOCK_SIZE] = {};

	if (raw_key_len > SHA256_BLOCK_SIZE) {
		struct __sha256_ctx ctx;

		__sha256_init(&ctx, iv, 0);
		__sha256_update(&ctx, raw_key, raw_key_len);
		__sha256_final(&ctx, block, iv == &sha224_iv ? SHA224_DIGEST_SIZE : SHA256_DIGEST_SIZE);
	} else {
		memcpy(block, raw_key, raw_key_len);
	}
	for (int i = 0; i < SHA256_BLOCK_SIZE; i++)
		block[i] ^= HMAC_IPAD_VALUE;
	key->istate = *iv;
	sha256_blocks(&key->istate, block, 1);
	for (int i = 0; i < SHA256_BLOCK_SIZE; i++)
		block[i] ^= HMAC_IPAD_VALUE ^ HMAC_OPAD_VALUE;
	key->ostate = *iv;
	sha256_blocks(&key->ostate, block, 1);
	memzero_explicit(block, sizeof(block));
}

void hmac_sha224_preparekey(struct hmac_sha224_key *key, const u8 *raw_key, size_t raw_key_len)
{
	__hmac_sha256_preparekey(&key->key, raw_key, raw_key_len, &sha224_iv);
}
EXPORT_SYMBOL_GPL(hmac_sha224_preparekey);

void hmac_sha256_preparekey(struct hmac_sha256_key *key, const u8 *raw_key, size_t raw_key_len)
{
	__hmac_sha256_preparekey(&key->key, raw_key, raw_key_len, &sha256_iv);
}
EXPORT_SYMBOL_GPL(hmac_sha256_preparekey);

void __hmac_sha256_init(struct __hmac_sha256_ctx *ctx, const struct __hmac_sha256_key *key)
{
	__sha256_init(&ctx->sha_ctx, &key->istate, SHA256_BLOCK_SIZE);
	ctx->ostate = key->ostate;
}
EXPORT_SYMBOL_GPL(__hmac_sha256_init);

void hmac_sha224_init_usingrawkey(struct hmac_sha224_ctx *ctx, const u8 *raw_key, size_t raw_key_len)
{
	struct hmac_sha224_key key;

	hmac_sha224_preparekey(&key, raw_key, raw_key_len);
	hmac_sha224_init(ctx, &key);
	memzero_explicit(&key, sizeof(key));
}
EXPORT_SYMBOL_GPL(hmac_sha224_init_usingrawkey);

void hmac_sha256_init_usingrawkey(struct hmac_sha256_ctx *ctx, const u8 *raw_key, size_t raw_key_len)
{
	struct hmac_sha256_key key;

	hmac_sha256_preparekey(&key, raw_key, raw_key_len);
	hmac_sha256_init(ctx, &key);
	memzero_explicit(&key, sizeof(key));
}
EXPORT_SYMBOL_GPL(hmac_sha256_init_usingrawkey);

/* The inner digest, then one more block under the outer state. */
static void __hmac_sha256_final(struct __hmac_sha256_ctx *ctx, u8 *out, size_t digest_size)
{
	u8 inner[SHA256_DIGEST_SIZE];
	struct __sha256_ctx outer;

	__sha256_final(&ctx->sha_ctx, inner, digest_size);
	outer.state = ctx->ostate;
	outer.bytecount = SHA256_BLOCK_SIZE;
	__sha256_update(&outer, inner, digest_size);
	__sha256_final(&outer, out, digest_size);
	memzero_explicit(inner, sizeof(inner));
	memzero_explicit(ctx, sizeof(*ctx));
}

void hmac_sha224_final(struct hmac_sha224_ctx *ctx, u8 out[SHA224_DIGEST_SIZE])
{
	__hmac_sha256_final(&ctx->ctx, out, SHA224_DIGEST_SIZE);
}
EXPORT_SYMBOL_GPL(hmac_sha224_final);

void hmac_sha256_final(struct hmac_sha256_ctx *ctx, u8 out[SHA256_DIGEST_SIZE])
{
	__hmac_sha256_final(&ctx->ctx, out, SHA256_DIGEST_SIZE);
}
EXPORT_SYMBOL_GPL(hmac_sha256_final);

void hmac_sha224(const struct hmac_sha224_key *key, const u8 *data, size_t data_len, u8 out[SHA224_DIGEST_SIZE])
{
	struct hmac_sha224_ctx ctx;

	hmac_sha224_init(&ctx, key);
	hmac_sha224_update(&ctx, data, data_len);
	hmac_sha224_final(&ctx, out);
}
EXPORT_SYMBOL_GPL(hmac_sha224);

void hmac_sha256(const struct hmac_sha256_key *key, const u8 *data, size_t data_len, u8 out[SHA256_DIGEST_SIZE])
{
	struct hmac_sha256_ctx ctx;

	hmac_sha256_init(&ctx, key);
	hmac_sha256_update(&ctx, data, data_len);
	hmac_sha256_final(&ctx, out);
}
EXPORT_SYMBOL_GPL(hmac_sha256);

void hmac_sha224_usingrawkey(const u8 *raw_key, size_t raw_key_len, const u8 *data, size_t data_len,
			     u8 out[SHA224_DIGEST_SIZE])
{
	struct hmac_sha224_key key;

	hmac_sha224_preparekey(&key, raw_key, raw_key_len);
	hmac_sha224(&key, data, data_len, out);
	memzero_explicit(&key, sizeof(key));
}
EXPORT_SYMBOL_GPL(hmac_sha224_usingrawkey);

void hmac_sha256_usingrawkey(const u8 *raw_key, size_t raw_key_len, const u8 *data, size_t data_len,
			     u8 out[SHA256_DIGEST_SIZE])
{
	struct hmac_sha256_key key;

	hmac_sha256_preparekey(&key, raw_key, raw_key_len);
	hmac_sha256(&key, data, data_len, out);
	memzero_explicit(&key, sizeof(key));
}
EXPORT_SYMBOL_GPL(hmac_sha256_usingrawkey);

static int __init sha256_mod_init(void)
{
	sha256_mod_init_arch();
	return 0;
}
subsys_initcall(sha256_mod_init);

MODULE_DESCRIPTION("SHA-224 and SHA-256 library functions of lockstep's miniature tree");
MODULE_LICENSE("MIT");
