/*
 * chacha/teeth:stale-overlap, class c. The 4-block path stores its blocks
 * last to first, as a copy loop written for dst above src would. With dst
 * below src (allowed: module.h), block b's store lands on the end of block
 * b - 1 before that is read, which then encrypts bytes already replaced.
 * In place, or apart, it is right.
 */
#include "teeth.h"

static void four_blocks(struct lockstep_chacha_state *state, uint8_t *dst,
			const uint8_t *src, int nrounds)
{
	int b;

	/* Planted: the order; front to back reads every block before it is hit. */
	for (b = 3; b >= 0; b--) {
		struct lockstep_chacha_state one = *state;

		one.x[12] += (uint32_t)b;
		teeth_chacha_crypt(&one, dst + 64 * b, src + 64 * b, 64, nrounds);
	}
	state->x[12] += 4;
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
		.name = "teeth:stale-overlap",
		.notes = "planted defect: its 4-block path stores last to first, wrong when dst is below src",
		.chacha_crypt = crypt,
	},
};

LOCKSTEP_MODULE("teeth-stale-overlap", backends);
