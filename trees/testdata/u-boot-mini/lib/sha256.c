// SPDX-License-Identifier: MIT
/*
 * SHA-256 front end of lockstep's miniature U-Boot tree: buffering,
 * padding and the one-shot hash with watchdog chunks. Whole blocks go to
 * sha256_process(), weak here so that an arch glue can take them; this
 * tree's own compression is lockstep's generic one (the miniature checks
 * the layers around an algorithm, not the algorithm). Like U-Boot's, the
 * update hands every run of whole blocks over in one call, even a run of
 * none: refusing a zero count is the block function's part.
 */
#include <linux/string.h>
#include <watchdog.h>
#include <u-boot/sha256.h>

void sha256_blocks_generic(void *state, const uint8_t *data, size_t nblocks);

static const uint32_t sha256_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

__weak void sha256_process(sha256_context *ctx, const unsigned char *data,
			   unsigned int blocks)
{
	sha256_blocks_generic(ctx->state, data, blocks);
}

void sha256_starts(sha256_context *ctx)
{
	ctx->total[0] = 0;
	ctx->total[1] = 0;
	memcpy(ctx->state, sha256_iv, sizeof(ctx->state));
}

void sha256_update(sha256_context *ctx, const uint8_t *input, uint32_t length)
{
	uint32_t have = ctx->total[0] % 64;
	uint32_t whole;

	if (length == 0)
		return;
	ctx->total[0] += length;
	if (ctx->total[0] < length)
		ctx->total[1]++;

	if (have) {
		uint32_t room = 64 - have;

		if (length < room) {
			memcpy(ctx->buffer + have, input, length);
			return;
		}
		memcpy(ctx->buffer + have, input, room);
		sha256_process(ctx, ctx->buffer, 1);
		input += room;
		length -= room;
	}

	whole = length / 64;
	sha256_process(ctx, input, whole);
	input += whole * 64;
	length -= whole * 64;

	memcpy(ctx->buffer, input, length);
}

void sha256_finish(sha256_context *ctx, uint8_t digest[SHA256_SUM_LEN])
{
	uint64_t bits = ((uint64_t)ctx->total[1] << 32 | ctx->total[0]) << 3;
	uint8_t tail[64 + 8] = { 0x80 };
	uint32_t have = ctx->total[0] % 64;
	uint32_t pad = have < 56 ? 56 - have : 120 - have;
	int i;

	for (i = 0; i < 8; i++)
		tail[pad + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(ctx, tail, pad + 8);

	for (i = 0; i < 32; i++)
		digest[i] = (uint8_t)(ctx->state[i / 4] >> (24 - 8 * (i % 4)));
}

void sha256_csum_wd(const unsigned char *input, unsigned int ilen,
		    unsigned char *output, unsigned int chunk_sz)
{
	sha256_context ctx;

	sha256_starts(&ctx);
	if (CONFIG_IS_ENABLED(WATCHDOG)) {
		while (ilen) {
			unsigned int now = ilen < chunk_sz ? ilen : chunk_sz;

			sha256_update(&ctx, input, now);
			input += now;
			ilen -= now;
			schedule();
		}
	} else {
		sha256_update(&ctx, input, ilen);
	}
	sha256_finish(&ctx, output);
}
