/*
 * sha256/teeth:overread-tail, class d. Its finup_2x copies each message's
 * tail (what is left after the whole blocks) as a whole block, reading up
 * to 63 bytes past the end of data1 and data2. The digests are right; a
 * guard page or AddressSanitizer sees it.
 */
#include <string.h>

#include "teeth.h"

static void absorb(struct lockstep_sha256_ctx *c, const uint8_t *data, size_t len)
{
	size_t whole = len - len % 64;
	uint8_t block[64];

	teeth_sha256_update(c, data, whole);
	if (whole < len) {
		/* Planted: 64 bytes, where len - whole are there. */
		memcpy(block, data + whole, sizeof block);
		teeth_sha256_update(c, block, len - whole);
	}
}

static bool finup_2x(const struct lockstep_sha256_ctx *ctx, const uint8_t *data1,
		     const uint8_t *data2, size_t len, uint8_t out1[32], uint8_t out2[32])
{
	struct lockstep_sha256_ctx a = *ctx, b = *ctx;
	uint8_t md1[32], md2[32];

	absorb(&a, data1, len);
	absorb(&b, data2, len);
	teeth_sha256_final(&a, md1);
	teeth_sha256_final(&b, md2);
	memcpy(out1, md1, sizeof md1);
	memcpy(out2, md2, sizeof md2);
	return true;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "teeth:overread-tail",
		.notes = "planted defect: finup_2x reads a whole block for a short tail",
		.sha256_blocks = planted_sha256_portable_blocks,
		.sha256_finup_2x = finup_2x,
	},
};

LOCKSTEP_MODULE("teeth-sha256-overread-tail", backends);
