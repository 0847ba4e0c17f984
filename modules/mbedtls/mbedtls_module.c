/*
 * lockstep module over Mbed TLS 2.28: its SHA-256 and SHA-512 block
 * functions and its ChaCha20, portable C that firmware and embedded builds
 * carry, checked here against everything else lockstep knows.
 */
#include <lockstep/module.h>

#include <mbedtls/chacha20.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>
#include <mbedtls/version.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what, int ret)
{
	fprintf(stderr, "mbedtls module: %s returned %d\n", what, ret);
	abort();
}

/* The contexts' state members are public in 2.28 (3.x makes them private),
 * and the process functions compress exactly the one block given. */
static void sha256_blocks(struct lockstep_sha256_state *state,
			  const uint8_t *data, size_t nblocks)
{
	mbedtls_sha256_context ctx;
	int ret;

	mbedtls_sha256_init(&ctx);
	memcpy(ctx.state, state->h, sizeof(ctx.state));
	for (; nblocks > 0; nblocks--, data += 64) {
		ret = mbedtls_internal_sha256_process(&ctx, data);
		if (ret != 0)
			fail("mbedtls_internal_sha256_process", ret);
	}
	memcpy(state->h, ctx.state, sizeof(state->h));
	mbedtls_sha256_free(&ctx);
}

static void sha512_blocks(struct lockstep_sha512_state *state,
			  const uint8_t *data, size_t nblocks)
{
	mbedtls_sha512_context ctx;
	int ret;

	mbedtls_sha512_init(&ctx);
	memcpy(ctx.state, state->h, sizeof(ctx.state));
	for (; nblocks > 0; nblocks--, data += 128) {
		ret = mbedtls_internal_sha512_process(&ctx, data);
		if (ret != 0)
			fail("mbedtls_internal_sha512_process", ret);
	}
	memcpy(state->h, ctx.state, sizeof(state->h));
	mbedtls_sha512_free(&ctx);
}

static void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void chacha_crypt(struct lockstep_chacha_state *state, uint8_t *dst,
			 const uint8_t *src, size_t len, int nrounds)
{
	mbedtls_chacha20_context ctx;
	uint8_t key[32], nonce[12];
	int i, ret;

	if (nrounds != 20) {
		fprintf(stderr, "mbedtls module: Mbed TLS ChaCha20 has 20 "
				"rounds, not %d\n", nrounds);
		abort();
	}
	if (len == 0)
		return;

	for (i = 0; i < 8; i++)
		store_le32(key + 4 * i, state->x[4 + i]);
	for (i = 0; i < 3; i++)
		store_le32(nonce + 4 * i, state->x[13 + i]);

	mbedtls_chacha20_init(&ctx);
	ret = mbedtls_chacha20_setkey(&ctx, key);
	if (ret != 0)
		fail("mbedtls_chacha20_setkey", ret);
	ret = mbedtls_chacha20_starts(&ctx, nonce, state->x[12]);
	if (ret != 0)
		fail("mbedtls_chacha20_starts", ret);
	ret = mbedtls_chacha20_update(&ctx, len, src, dst);
	if (ret != 0)
		fail("mbedtls_chacha20_update", ret);
	/* Mbed TLS steps state[12] as a uint32_t once per block, partial
	 * ones too, and never touches the nonce: the RFC 8439 wrap. Its word
	 * 12 is therefore exactly the counter lockstep expects back. */
	state->x[12] = ctx.state[12];
	mbedtls_chacha20_free(&ctx);
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "mbedtls:internal_sha256_process",
		.needs = "",
		.notes = "Mbed TLS " MBEDTLS_VERSION_STRING " mbedtls_internal_sha256_process",
		.sha256_blocks = sha256_blocks,
	},
	{
		.family = "sha512",
		.name = "mbedtls:internal_sha512_process",
		.needs = "",
		.notes = "Mbed TLS " MBEDTLS_VERSION_STRING " mbedtls_internal_sha512_process",
		.sha512_blocks = sha512_blocks,
	},
	{
		.family = "chacha",
		.name = "mbedtls:chacha20_update",
		.needs = "",
		.notes = "Mbed TLS " MBEDTLS_VERSION_STRING " mbedtls_chacha20_update, 32-bit counter",
		.chacha_crypt = chacha_crypt,
		.chacha_counter = LOCKSTEP_COUNTER_WRAP32,
		.chacha_rounds = LOCKSTEP_ROUNDS_20,
		/* mbedtls/chacha20.h on mbedtls_chacha20_update(): "The
		 * input and output pointers must either be equal or point to
		 * non-overlapping buffers." */
		.chacha_overlap = LOCKSTEP_OVERLAP_INPLACE,
		/* mbedtls_chacha20_free() clears the context; the key and
		 * nonce copies above stay on the stack. */
		.wipes = false,
	},
};

LOCKSTEP_MODULE("mbedtls", backends);
