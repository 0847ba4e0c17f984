/* SPDX-License-Identifier: MIT */
/*
 * The ChaCha library interface of lockstep's miniature tree, in the shape
 * of the kernel's current one: the state, its setup, the block and HChaCha
 * functions, and chacha_crypt().
 */
#ifndef _CRYPTO_CHACHA_H
#define _CRYPTO_CHACHA_H

#include <linux/unaligned.h>
#include <linux/string.h>
#include <linux/types.h>

#define CHACHA_IV_SIZE		16
#define CHACHA_KEY_SIZE		32
#define CHACHA_BLOCK_SIZE	64
#define CHACHA_KEY_WORDS	8
#define CHACHA_STATE_WORDS	16
#define HCHACHA_OUT_WORDS	8

struct chacha_state {
	u32 x[CHACHA_STATE_WORDS];
};

void chacha_block_generic(struct chacha_state *state, u8 out[CHACHA_BLOCK_SIZE], int nrounds);
void hchacha_block_generic(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS], int nrounds);
void hchacha_block(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS], int nrounds);

/* "expand 32-byte k", the key, then the counter and nonce words of iv. */
static inline void chacha_init(struct chacha_state *state, const u32 key[CHACHA_KEY_WORDS],
			       const u8 iv[CHACHA_IV_SIZE])
{
	state->x[0] = 0x61707865;
	state->x[1] = 0x3320646e;
	state->x[2] = 0x79622d32;
	state->x[3] = 0x6b206574;
	memcpy(&state->x[4], key, CHACHA_KEY_SIZE);
	for (int i = 0; i < 4; i++)
		state->x[12 + i] = get_unaligned_le32(iv + 4 * i);
}

void chacha_crypt(struct chacha_state *state, u8 *dst, const u8 *src, unsigned int bytes, int nrounds);

#endif /* _CRYPTO_CHACHA_H */
