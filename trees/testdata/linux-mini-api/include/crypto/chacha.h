/* SPDX-License-Identifier: MIT */
/*
 * ChaCha of lockstep's miniature of the older layout, in the shape the
 * kernel's include/crypto/chacha.h gives it (5.4 to 6.16): the sizes, the
 * state set up from a key and a 16-byte IV (block counter, then nonce),
 * and the library calls with their generic and arch versions.
 */
#ifndef _CRYPTO_CHACHA_H
#define _CRYPTO_CHACHA_H

#include <linux/types.h>
#include <asm/unaligned.h>

#define CHACHA_KEY_SIZE		32
#define CHACHA_BLOCK_SIZE	64
#define CHACHA_IV_SIZE		16
#define XCHACHA_IV_SIZE		32
#define CHACHA_STATE_WORDS 16

void chacha_crypt_generic(u32 *state, u8 *dst, const u8 *src,
			  unsigned int bytes, int nrounds);
void chacha_crypt_arch(u32 *state, u8 *dst, const u8 *src,
		       unsigned int bytes, int nrounds);
void hchacha_block_generic(const u32 *state, u32 *out, int nrounds);
void hchacha_block_arch(const u32 *state, u32 *out, int nrounds);
void chacha_init_arch(u32 *state, const u32 *key, const u8 *iv);

/* RFC 8439, 2.3: "expand 32-byte k", the key, then the IV's words. */
static inline void chacha_init_generic(u32 *state, const u32 *key, const u8 *iv)
{
	static const u32 sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	int i;

	for (i = 0; i < 4; i++)
		state[i] = sigma[i];
	for (i = 0; i < 8; i++)
		state[4 + i] = key[i];
	for (i = 0; i < 4; i++)
		state[12 + i] = get_unaligned_le32(iv + 4 * i);
}

#endif
