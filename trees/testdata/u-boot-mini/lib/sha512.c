// SPDX-License-Identifier: MIT
/*
 * SHA-512 front end of lockstep's miniature U-Boot tree, shaped as its
 * lib/sha256.c: whole blocks to a weak sha512_process() an arch glue can
 * take, every run of them in one call (a run of none included).
 */
#include <linux/string.h>
#include <watchdog.h>
#include <u-boot/sha512.h>

void sha512_blocks_generic(void *state, const uint8_t *data, size_t nblocks);

static const uint64_t sha512_iv[8] = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
	0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

__weak void sha512_process(sha512_context *ctx, const unsigned char *data,
			   unsigned int blocks)
{
	sha512_blocks_generic(ctx->state, data, blocks);
}

void sha512_starts(sha512_context *ctx)
{
	ctx->count[0] = 0;
	ctx->count[1] = 0;
	memcpy(ctx->state, sha512_iv, sizeof(ctx->state));
}

void sha512_update(sha512_context *ctx, const uint8_t *input, uint32_t length)
{
	uint32_t have = ctx->count[0] % 128;
	uint32_t whole;

	if (length == 0)
		return;
	ctx->count[0] += length;
	if (ctx->count[0] < length)
		ctx->count[1]++;

	if (have) {
		uint32_t room = 128 - have;

		if (length < room) {
			memcpy(ctx->buf + have, input, length);
			return;
		}
		memcpy(ctx->buf + have, input, room);
		sha512_process(ctx, ctx->buf, 1);
		input += room;
		length -= room;
	}

	whole = length / 128;
	sha512_process(ctx, input, whole);
	input += (size_t)whole * 128;
	length -= whole * 128;

	memcpy(ctx->buf, input, length);
}

void sha512_finish(sha512_context *ctx, uint8_t digest[SHA512_SUM_LEN])
{
	uint8_t tail[128 + 16] = { 0x80 };
	uint32_t have = ctx->count[0] % 128;
	uint32_t pad = have < 112 ? 112 - have : 240 - have;
	uint64_t hi = ctx->count[1] << 3 | ctx->count[0] >> 61;
	uint64_t lo = ctx->count[0] << 3;
	int i;

	for (i = 0; i < 8; i++) {
		tail[pad + i] = (uint8_t)(hi >> (56 - 8 * i));
		tail[pad + 8 + i] = (uint8_t)(lo >> (56 - 8 * i));
	}
	sha512_update(ctx, tail, pad + 16);

	for (i = 0; i < 64; i++)
		digest[i] = (uint8_t)(ctx->state[i / 8] >> (56 - 8 * (i % 8)));
}

void sha512_csum_wd(const unsigned char *input, unsigned int ilen,
		    unsigned char *output, unsigned int chunk_sz)
{
	sha512_context ctx;

	sha512_starts(&ctx);
	if (CONFIG_IS_ENABLED(WATCHDOG)) {
		while (ilen) {
			unsigned int now = ilen < chunk_sz ? ilen : chunk_sz;

			sha512_update(&ctx, input, now);
			input += now;
			ilen -= now;
			schedule();
		}
	} else {
		sha512_update(&ctx, input, ilen);
	}
	sha512_finish(&ctx, output);
}
