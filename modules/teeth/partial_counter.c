/*
 * chacha/teeth:partial-counter, class b. A trailing partial block is
 * encrypted on a copy of the state, and the counter step it took is lost:
 * word 12 is left one short, so the next call reuses that block's
 * keystream.
 */
#include "teeth.h"

static void crypt(struct lockstep_chacha_state *state, uint8_t *dst, const uint8_t *src,
		  size_t len, int nrounds)
{
	size_t whole = len - len % 64;

	teeth_chacha_crypt(state, dst, src, whole, nrounds);
	if (whole < len) {
		/* Planted: a copy, never written back. */
		struct lockstep_chacha_state tail = *state;

		teeth_chacha_crypt(&tail, dst + whole, src + whole, len - whole, nrounds);
	}
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "teeth:partial-counter",
		.notes = "planted defect: a trailing partial block does not advance word 12",
		.chacha_crypt = crypt,
	},
};

LOCKSTEP_MODULE("teeth-partial-counter", backends);
