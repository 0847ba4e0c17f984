/*
 * sha256/teeth:bytecount32, class g. Its finup_2x keeps the byte count in
 * 32 bits for the length field, so a context that has absorbed 4 GiB or
 * more finishes with the wrong length.
 */
#include <string.h>

#include "teeth.h"

static bool finup_2x(const struct lockstep_sha256_ctx *ctx, const uint8_t *data1,
		     const uint8_t *data2, size_t len, uint8_t out1[32], uint8_t out2[32])
{
	struct lockstep_sha256_ctx a = *ctx, b = *ctx;
	/* Planted: uint32_t, where the count is 64 bits. */
	uint32_t count = (uint32_t)(ctx->bytecount + len);
	uint8_t md1[32], md2[32];

	teeth_sha256_update(&a, data1, len);
	teeth_sha256_update(&b, data2, len);
	teeth_sha256_pad(&a, (uint64_t)count << 3, md1);
	teeth_sha256_pad(&b, (uint64_t)count << 3, md2);
	memcpy(out1, md1, sizeof md1);
	memcpy(out2, md2, sizeof md2);
	return true;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "teeth:bytecount32",
		.notes = "planted defect: finup_2x pads with a 32-bit byte count",
		.sha256_blocks = planted_sha256_portable_blocks,
		.sha256_finup_2x = finup_2x,
	},
};

LOCKSTEP_MODULE("teeth-bytecount32", backends);
