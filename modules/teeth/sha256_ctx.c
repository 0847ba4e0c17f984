/*
 * Finishing a SHA-256 context the way lockstep's front end does, for the
 * planted finup_2x modules: each works on copies of the context it is
 * given, and breaks one step.
 */
#include <string.h>

#include "teeth.h"

void teeth_store_be32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

void teeth_store_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

void teeth_sha256_update(struct lockstep_sha256_ctx *ctx, const uint8_t *data, size_t len)
{
	size_t fill = ctx->bytecount % 64;

	ctx->bytecount += len;
	if (fill && fill + len >= 64) {
		size_t take = 64 - fill;

		memcpy(ctx->buf + fill, data, take);
		planted_sha256_portable_blocks(&ctx->state, ctx->buf, 1);
		data += take;
		len -= take;
		fill = 0;
	}
	if (!fill && len >= 64) {
		planted_sha256_portable_blocks(&ctx->state, data, len / 64);
		data += len - len % 64;
		len %= 64;
	}
	memcpy(ctx->buf + fill, data, len);
}

void teeth_sha256_pad(struct lockstep_sha256_ctx *ctx, uint64_t bits, uint8_t out[32])
{
	size_t fill = ctx->bytecount % 64;
	int i;

	ctx->buf[fill++] = 0x80;
	if (fill > 56) {
		memset(ctx->buf + fill, 0, 64 - fill);
		planted_sha256_portable_blocks(&ctx->state, ctx->buf, 1);
		fill = 0;
	}
	memset(ctx->buf + fill, 0, 56 - fill);
	teeth_store_be64(ctx->buf + 56, bits);
	planted_sha256_portable_blocks(&ctx->state, ctx->buf, 1);
	for (i = 0; i < 8; i++)
		teeth_store_be32(out + 4 * i, ctx->state.h[i]);
}

void teeth_sha256_final(struct lockstep_sha256_ctx *ctx, uint8_t out[32])
{
	teeth_sha256_pad(ctx, ctx->bytecount << 3, out);
}
