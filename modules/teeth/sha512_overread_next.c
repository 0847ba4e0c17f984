/*
 * sha512/teeth:overread-next-block, class d. Its block loop loads the next
 * block while it compresses the current one, and loads one more after the
 * last: 128 bytes past the end of the data. The digests are right; a guard
 * page or AddressSanitizer sees it.
 */
#include <string.h>

#include "teeth.h"

static void blocks(struct lockstep_sha512_state *state, const uint8_t *data, size_t nblocks)
{
	uint8_t cur[128], next[128];

	memcpy(next, data, sizeof next);
	while (nblocks--) {
		memcpy(cur, next, sizeof cur);
		data += 128;
		/* Planted: loaded before the count says there is a next block. */
		memcpy(next, data, sizeof next);
		teeth_sha512_blocks(state, cur, 1);
	}
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha512",
		.name = "teeth:overread-next-block",
		.notes = "planted defect: loads one block past the end of the data",
		.sha512_blocks = blocks,
	},
};

LOCKSTEP_MODULE("teeth-sha512-overread-next-block", backends);
