/* SPDX-License-Identifier: MIT */
/*
 * The SHA-2 library interface of lockstep's miniature tree, in the shape
 * of the kernel's current one: block state, contexts wrapped per
 * algorithm, HMAC with prepared keys, and the 2-way finup.
 */
#ifndef _CRYPTO_SHA2_H
#define _CRYPTO_SHA2_H

#include <linux/types.h>

#define SHA224_DIGEST_SIZE	28
#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64
#define SHA384_DIGEST_SIZE	48
#define SHA512_DIGEST_SIZE	64
#define SHA512_BLOCK_SIZE	128

struct sha256_block_state {
	u32 h[8];
};

struct sha512_block_state {
	u64 h[8];
};

struct __sha256_ctx {
	struct sha256_block_state state;
	u64 bytecount;
	u8 buf[SHA256_BLOCK_SIZE] __aligned(8);
};
void __sha256_update(struct __sha256_ctx *ctx, const u8 *data, size_t len);

struct __hmac_sha256_key {
	struct sha256_block_state istate;
	struct sha256_block_state ostate;
};

struct __hmac_sha256_ctx {
	struct __sha256_ctx sha_ctx;
	struct sha256_block_state ostate;
};
void __hmac_sha256_init(struct __hmac_sha256_ctx *ctx, const struct __hmac_sha256_key *key);

struct sha224_ctx {
	struct __sha256_ctx ctx;
};
struct sha256_ctx {
	struct __sha256_ctx ctx;
};
struct hmac_sha224_key {
	struct __hmac_sha256_key key;
};
struct hmac_sha256_key {
	struct __hmac_sha256_key key;
};
struct hmac_sha224_ctx {
	struct __hmac_sha256_ctx ctx;
};
struct hmac_sha256_ctx {
	struct __hmac_sha256_ctx ctx;
};

void sha224_init(struct sha224_ctx *ctx);
static inline void sha224_update(struct sha224_ctx *ctx, const u8 *data, size_t len)
{
	__sha256_update(&ctx->ctx, data, len);
}
void sha224_final(struct sha224_ctx *ctx, u8 out[SHA224_DIGEST_SIZE]);
void sha224(const u8 *data, size_t len, u8 out[SHA224_DIGEST_SIZE]);

void sha256_init(struct sha256_ctx *ctx);
static inline void sha256_update(struct sha256_ctx *ctx, const u8 *data, size_t len)
{
	__sha256_update(&ctx->ctx, data, len);
}
void sha256_final(struct sha256_ctx *ctx, u8 out[SHA256_DIGEST_SIZE]);
void sha256(const u8 *data, size_t len, u8 out[SHA256_DIGEST_SIZE]);

void sha256_finup_2x(const struct sha256_ctx *ctx, const u8 *data1, const u8 *data2, size_t len,
		     u8 out1[SHA256_DIGEST_SIZE], u8 out2[SHA256_DIGEST_SIZE]);
bool sha256_finup_2x_is_optimized(void);

void hmac_sha224_preparekey(struct hmac_sha224_key *key, const u8 *raw_key, size_t raw_key_len);
void hmac_sha256_preparekey(struct hmac_sha256_key *key, const u8 *raw_key, size_t raw_key_len);
static inline void hmac_sha224_init(struct hmac_sha224_ctx *ctx, const struct hmac_sha224_key *key)
{
	__hmac_sha256_init(&ctx->ctx, &key->key);
}
static inline void hmac_sha256_init(struct hmac_sha256_ctx *ctx, const struct hmac_sha256_key *key)
{
	__hmac_sha256_init(&ctx->ctx, &key->key);
}
void hmac_sha224_init_usingrawkey(struct hmac_sha224_ctx *ctx, const u8 *raw_key, size_t raw_key_len);
void hmac_sha256_init_usingrawkey(struct hmac_sha256_ctx *ctx, const u8 *raw_key, size_t raw_key_len);
static inline void hmac_sha224_update(struct hmac_sha224_ctx *ctx, const u8 *data, size_t data_len)
{
	__sha256_update(&ctx->ctx.sha_ctx, data, data_len);
}
static inline void hmac_sha256_update(struct hmac_sha256_ctx *ctx, const u8 *data, size_t data_len)
{
	__sha256_update(&ctx->ctx.sha_ctx, data, data_len);
}
void hmac_sha224_final(struct hmac_sha224_ctx *ctx, u8 out[SHA224_DIGEST_SIZE]);
void hmac_sha256_final(struct hmac_sha256_ctx *ctx, u8 out[SHA256_DIGEST_SIZE]);
void hmac_sha224(const struct hmac_sha224_key *key, const u8 *data, size_t data_len,
		 u8 out[SHA224_DIGEST_SIZE]);
void hmac_sha256(const struct hmac_sha256_key *key, const u8 *data, size_t data_len,
		 u8 out[SHA256_DIGEST_SIZE]);
void hmac_sha224_usingrawkey(const u8 *raw_key, size_t raw_key_len, const u8 *data, size_t data_len,
			     u8 out[SHA224_DIGEST_SIZE]);
void hmac_sha256_usingrawkey(const u8 *raw_key, size_t raw_key_len, const u8 *data, size_t data_len,
			     u8 out[SHA256_DIGEST_SIZE]);

#endif /* _CRYPTO_SHA2_H */
