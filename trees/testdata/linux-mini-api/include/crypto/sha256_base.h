/* SPDX-License-Identifier: MIT */
/*
 * The block-buffering helpers of lockstep's miniature of the older layout,
 * in the shape of the kernel's include/crypto/sha256_base.h: a glue hands
 * them its block function, and they keep the partial block, the byte
 * count and the padding.
 */
#ifndef _CRYPTO_SHA256_BASE_H
#define _CRYPTO_SHA256_BASE_H

#include <crypto/internal/hash.h>
#include <crypto/sha2.h>
#include <linux/string.h>
#include <asm/unaligned.h>

typedef void (sha256_block_fn)(struct sha256_state *sst, u8 const *src, int blocks);

static inline int sha224_base_init(struct shash_desc *desc)
{
	struct sha256_state *sctx = shash_desc_ctx(desc);
	static const u32 iv[8] = {SHA224_H0, SHA224_H1, SHA224_H2, SHA224_H3,
				  SHA224_H4, SHA224_H5, SHA224_H6, SHA224_H7};

	memcpy(sctx->state, iv, sizeof(iv));
	sctx->count = 0;
	return 0;
}

static inline int sha256_base_init(struct shash_desc *desc)
{
	struct sha256_state *sctx = shash_desc_ctx(desc);
	static const u32 iv[8] = {SHA256_H0, SHA256_H1, SHA256_H2, SHA256_H3,
				  SHA256_H4, SHA256_H5, SHA256_H6, SHA256_H7};

	memcpy(sctx->state, iv, sizeof(iv));
	sctx->count = 0;
	return 0;
}

static inline int sha256_base_do_update(struct shash_desc *desc, const u8 *data,
					unsigned int len, sha256_block_fn *block_fn)
{
	struct sha256_state *sctx = shash_desc_ctx(desc);
	unsigned int used = sctx->count % SHA256_BLOCK_SIZE;

	sctx->count += len;
	if (used + len < SHA256_BLOCK_SIZE) {
		memcpy(sctx->buf + used, data, len);
		return 0;
	}
	if (used) {
		unsigned int fill = SHA256_BLOCK_SIZE - used;

		memcpy(sctx->buf + used, data, fill);
		block_fn(sctx, sctx->buf, 1);
		data += fill;
		len -= fill;
	}
	if (len >= SHA256_BLOCK_SIZE) {
		int blocks = len / SHA256_BLOCK_SIZE;

		block_fn(sctx, data, blocks);
		data += (size_t)blocks * SHA256_BLOCK_SIZE;
		len %= SHA256_BLOCK_SIZE;
	}
	memcpy(sctx->buf, data, len);
	return 0;
}

static inline int sha256_base_do_finalize(struct shash_desc *desc, sha256_block_fn *block_fn)
{
	struct sha256_state *sctx = shash_desc_ctx(desc);
	unsigned int used = sctx->count % SHA256_BLOCK_SIZE;

	sctx->buf[used++] = 0x80;
	if (used > SHA256_BLOCK_SIZE - 8) {
		memset(sctx->buf + used, 0, SHA256_BLOCK_SIZE - used);
		block_fn(sctx, sctx->buf, 1);
		used = 0;
	}
	memset(sctx->buf + used, 0, SHA256_BLOCK_SIZE - 8 - used);
	put_unaligned_be64(sctx->count << 3, sctx->buf + SHA256_BLOCK_SIZE - 8);
	block_fn(sctx, sctx->buf, 1);
	return 0;
}

static inline int sha256_base_finish(struct shash_desc *desc, u8 *out)
{
	struct sha256_state *sctx = shash_desc_ctx(desc);
	unsigned int words = crypto_shash_digestsize(desc->tfm) / 4;

	for (unsigned int i = 0; i < words; i++)
		put_unaligned_be32(sctx->state[i], out + 4 * i);
	memzero_explicit(sctx, sizeof(*sctx));
	return 0;
}

#endif /* _CRYPTO_SHA256_BASE_H */
