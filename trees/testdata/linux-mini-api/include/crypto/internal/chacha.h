/* SPDX-License-Identifier: MIT */
/*
 * The skcipher side of ChaCha in lockstep's miniature of the older layout,
 * in the shape of the kernel's include/crypto/internal/chacha.h: a
 * transform's key and rounds, and the setkey a glue registers.
 */
#ifndef _CRYPTO_INTERNAL_CHACHA_H
#define _CRYPTO_INTERNAL_CHACHA_H

#include <crypto/chacha.h>
#include <crypto/internal/skcipher.h>

struct chacha_ctx {
	u32 key[8];
	int nrounds;
};

static inline int chacha_setkey(struct crypto_skcipher *tfm, const u8 *key,
				unsigned int keysize, int nrounds)
{
	struct chacha_ctx *ctx = crypto_skcipher_ctx(tfm);
	int i;

	if (keysize != CHACHA_KEY_SIZE)
		return -EINVAL;
	for (i = 0; i < 8; i++)
		ctx->key[i] = get_unaligned_le32(key + 4 * i);
	ctx->nrounds = nrounds;
	return 0;
}

static inline int chacha20_setkey(struct crypto_skcipher *tfm, const u8 *key,
				  unsigned int keysize)
{
	return chacha_setkey(tfm, key, keysize, 20);
}

static inline int chacha12_setkey(struct crypto_skcipher *tfm, const u8 *key,
				  unsigned int keysize)
{
	return chacha_setkey(tfm, key, keysize, 12);
}

#endif
