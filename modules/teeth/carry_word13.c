/*
 * chacha/teeth:carry-word13, class a. It declares RFC 8439's counter
 * (LOCKSTEP_COUNTER_WRAP32, the default), but its 4-block path counts in
 * words 12 and 13 as one 64-bit number, so a call that crosses block
 * 2^32 - 1 there carries into the first nonce word. The 1-block path, for
 * what is left, wraps as declared.
 */
#include "teeth.h"

static void four_blocks(struct lockstep_chacha_state *state, uint8_t *dst,
			const uint8_t *src, int nrounds)
{
	/* Planted: words 12 and 13 together, not word 12 alone. */
	uint64_t counter = (uint64_t)state->x[13] << 32 | state->x[12];
	int b;

	for (b = 0; b < 4; b++) {
		struct lockstep_chacha_state one = *state;

		one.x[12] = (uint32_t)(counter + b);
		one.x[13] = (uint32_t)((counter + b) >> 32);
		teeth_chacha_crypt(&one, dst + 64 * b, src + 64 * b, 64, nrounds);
	}
	counter += 4;
	state->x[12] = (uint32_t)counter;
	state->x[13] = (uint32_t)(counter >> 32);
}

static void crypt(struct lockstep_chacha_state *state, uint8_t *dst, const uint8_t *src,
		  size_t len, int nrounds)
{
	for (; len >= 256; len -= 256, dst += 256, src += 256)
		four_blocks(state, dst, src, nrounds);
	teeth_chacha_crypt(state, dst, src, len, nrounds);
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "teeth:carry-word13",
		.notes = "planted defect: declares the 32-bit wrap, carries into word 13 in its 4-block path",
		.chacha_crypt = crypt,
		.chacha_counter = LOCKSTEP_COUNTER_WRAP32,
	},
};

LOCKSTEP_MODULE("teeth-carry-word13", backends);
