// SPDX-License-Identifier: MIT
/*
 * The generic ChaCha block and HChaCha of lockstep's miniature tree: RFC
 * 8439 section 2.3, the 32-bit counter in word 12, and HChaCha
 * (draft-irtf-cfrg-xchacha, section 2.2).
 */
#include <crypto/chacha.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/kernel.h>

/* A column round, then a diagonal one, nrounds / 2 times. */
static void chacha_permute(struct chacha_state *state, int nrounds)
{
	static const u8 q[8][4] = {
		{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15},
		{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14},
	};
	u32 *x = state->x;

	for (int r = 0; r < nrounds; r += 2) {
		for (int i = 0; i < 8; i++) {
			u32 *a = &x[q[i][0]], *b = &x[q[i][1]], *c = &x[q[i][2]], *d = &x[q[i][3]];

			*a += *b; *d = rol32(*d ^ *a, 16);
			*c += *d; *b = rol32(*b ^ *c, 12);
			*a += *b; *d = rol32(*d ^ *a, 8);
			*c += *d; *b = rol32(*b ^ *c, 7);
		}
	}
}

void chacha_block_generic(struct chacha_state *state, u8 out[CHACHA_BLOCK_SIZE], int nrounds)
{
	struct chacha_state permuted = *state;

	chacha_permute(&permuted, nrounds);
	for (int i = 0; i < CHACHA_STATE_WORDS; i++)
		put_unaligned_le32(permuted.x[i] + state->x[i], &out[4 * i]);
	state->x[12]++;
	memzero_explicit(&permuted, sizeof(permuted));
}
EXPORT_SYMBOL(chacha_block_generic);

void hchacha_block_generic(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS], int nrounds)
{
	struct chacha_state permuted = *state;

	chacha_permute(&permuted, nrounds);
	memcpy(&out[0], &permuted.x[0], 16);
	memcpy(&out[4], &permuted.x[12], 16);
	memzero_explicit(&permuted, sizeof(permuted));
}
EXPORT_SYMBOL(hchacha_block_generic);
