/*
 * sha512/teeth:pad-boundary, class f. A module's sha512 backend has only a
 * block function, so the defect is planted where padding shows there: the
 * padded last block of a message 111 mod 128 bytes long, where 0x80 and
 * the 16-byte length field exactly fill it, comes out wrong.
 */
#include "teeth.h"

static uint64_t load_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void blocks(struct lockstep_sha512_state *state, const uint8_t *data, size_t nblocks)
{
	const uint8_t *last = data + 128 * (nblocks - 1);

	teeth_sha512_blocks(state, data, nblocks);
	/* Planted: the last block of a 111 mod 128 message. */
	if (last[111] == 0x80 && load_be64(last + 112) == 0 &&
	    load_be64(last + 120) % 1024 == 111 * 8)
		state->h[0] ^= 1;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha512",
		.name = "teeth:pad-boundary",
		.notes = "planted defect: wrong when the message is 111 mod 128 bytes long",
		.sha512_blocks = blocks,
	},
};

LOCKSTEP_MODULE("teeth-sha512-pad-boundary", backends);
