/*
 * sha256/teeth:pad-boundary, class f. Its finup_2x pads with an off-by-one
 * at the length field: a message 55 bytes into its last block, where 0x80
 * and the 8-byte length exactly fill it, gets a second padding block.
 */
#include <string.h>

#include "teeth.h"

static void final(struct lockstep_sha256_ctx *ctx, uint8_t out[32])
{
	size_t fill = ctx->bytecount % 64;
	int i;

	ctx->buf[fill++] = 0x80;
	/* Planted: >= where the length field still fits at fill == 56. */
	if (fill >= 56) {
		memset(ctx->buf + fill, 0, 64 - fill);
		planted_sha256_portable_blocks(&ctx->state, ctx->buf, 1);
		fill = 0;
	}
	memset(ctx->buf + fill, 0, 56 - fill);
	teeth_store_be64(ctx->buf + 56, ctx->bytecount << 3);
	planted_sha256_portable_blocks(&ctx->state, ctx->buf, 1);
	for (i = 0; i < 8; i++)
		teeth_store_be32(out + 4 * i, ctx->state.h[i]);
}

static bool finup_2x(const struct lockstep_sha256_ctx *ctx, const uint8_t *data1,
		     const uint8_t *data2, size_t len, uint8_t out1[32], uint8_t out2[32])
{
	struct lockstep_sha256_ctx a = *ctx, b = *ctx;
	uint8_t md1[32], md2[32];

	teeth_sha256_update(&a, data1, len);
	teeth_sha256_update(&b, data2, len);
	final(&a, md1);
	final(&b, md2);
	memcpy(out1, md1, sizeof md1);
	memcpy(out2, md2, sizeof md2);
	return true;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "teeth:pad-boundary",
		.notes = "planted defect: finup_2x pads wrongly when the total length is 55 mod 64",
		.sha256_blocks = planted_sha256_portable_blocks,
		.sha256_finup_2x = finup_2x,
	},
};

LOCKSTEP_MODULE("teeth-sha256-pad-boundary", backends);
