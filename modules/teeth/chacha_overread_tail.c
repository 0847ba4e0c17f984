/*
 * chacha/teeth:overread-tail, class d. A trailing partial block is copied
 * in as a whole block first, so up to 63 bytes past the end of src are
 * read. The output is right; a guard page or AddressSanitizer sees it.
 */
#include <string.h>

#include "teeth.h"

static void crypt(struct lockstep_chacha_state *state, uint8_t *dst, const uint8_t *src,
		  size_t len, int nrounds)
{
	size_t whole = len - len % 64;

	teeth_chacha_crypt(state, dst, src, whole, nrounds);
	if (whole < len) {
		uint8_t block[64];

		/* Planted: 64 bytes, where len - whole are there. */
		memcpy(block, src + whole, sizeof block);
		teeth_chacha_crypt(state, dst + whole, block, len - whole, nrounds);
	}
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "teeth:overread-tail",
		.notes = "planted defect: reads a whole block for a short tail, past the end of src",
		.chacha_crypt = crypt,
	},
};

LOCKSTEP_MODULE("teeth-chacha-overread-tail", backends);
