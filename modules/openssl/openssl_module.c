/*
 * lockstep module over OpenSSL 3.0: its one-block SHA-256 and SHA-512
 * compression functions and its EVP ChaCha20, so lockstep checks the code
 * OpenSSL dispatches to on this CPU (SHA-NI, AVX2, NEON, ...) like its own.
 */

/* SHA256_Transform and SHA512_Transform are deprecated in 3.0 but still
 * exported, and they are the only public way to reach the block functions. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <lockstep/module.h>

#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/sha.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
	fprintf(stderr, "openssl module: %s failed\n", what);
	abort();
}

static void sha256_blocks(struct lockstep_sha256_state *state,
			  const uint8_t *data, size_t nblocks)
{
	SHA256_CTX ctx;

	memset(&ctx, 0, sizeof(ctx));
	memcpy(ctx.h, state->h, sizeof(ctx.h));
	for (; nblocks > 0; nblocks--, data += 64)
		SHA256_Transform(&ctx, data);
	memcpy(state->h, ctx.h, sizeof(state->h));
}

static void sha512_blocks(struct lockstep_sha512_state *state,
			  const uint8_t *data, size_t nblocks)
{
	SHA512_CTX ctx;

	memset(&ctx, 0, sizeof(ctx));
	memcpy(ctx.h, state->h, sizeof(ctx.h));
	for (; nblocks > 0; nblocks--, data += 128)
		SHA512_Transform(&ctx, data);
	memcpy(state->h, ctx.h, sizeof(state->h));
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
	uint8_t key[32], iv[16];
	EVP_CIPHER_CTX *ctx;
	uint64_t counter;
	size_t done = 0;
	int i, n;

	if (nrounds != 20) {
		fprintf(stderr, "openssl module: EVP_chacha20 has 20 rounds, "
				"not %d\n", nrounds);
		abort();
	}
	if (len == 0)
		return;

	/* EVP's IV is word 12 (the counter) then the nonce, words 13..15. */
	for (i = 0; i < 8; i++)
		store_le32(key + 4 * i, state->x[4 + i]);
	for (i = 0; i < 4; i++)
		store_le32(iv + 4 * i, state->x[12 + i]);

	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		fail("EVP_CIPHER_CTX_new");
	if (EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) != 1)
		fail("EVP_EncryptInit_ex");
	/* EVP takes an int length: feed longer input in whole blocks. */
	while (done < len) {
		size_t piece = len - done;

		if (piece > (size_t)INT_MAX)
			piece = (size_t)INT_MAX & ~(size_t)63;
		if (EVP_EncryptUpdate(ctx, dst + done, &n, src + done,
				      (int)piece) != 1 || (size_t)n != piece)
			fail("EVP_EncryptUpdate");
		done += piece;
	}
	EVP_CIPHER_CTX_free(ctx);

	/* EVP gives the state no way back out: advance the counter as it
	 * does, words 12 and 13 as one 64-bit number, a partial block
	 * counting as one. */
	counter = (uint64_t)state->x[13] << 32 | state->x[12];
	counter += len / 64 + (len % 64 != 0);
	state->x[12] = (uint32_t)counter;
	state->x[13] = (uint32_t)(counter >> 32);
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "openssl:SHA256_Transform",
		.needs = "",
		.notes = "OpenSSL " OPENSSL_VERSION_STR " SHA256_Transform, one block a call",
		.sha256_blocks = sha256_blocks,
	},
	{
		.family = "sha512",
		.name = "openssl:SHA512_Transform",
		.needs = "",
		.notes = "OpenSSL " OPENSSL_VERSION_STR " SHA512_Transform, one block a call",
		.sha512_blocks = sha512_blocks,
	},
	{
		.family = "chacha",
		.name = "openssl:EVP_chacha20",
		.needs = "",
		.notes = "OpenSSL " OPENSSL_VERSION_STR " EVP_chacha20, 64-bit counter",
		.chacha_crypt = chacha_crypt,
		.chacha_counter = LOCKSTEP_COUNTER_CARRY64,
		.chacha_rounds = LOCKSTEP_ROUNDS_20,
		/* EVP_EncryptUpdate(3) (OpenSSL 3.0) checks "if in and out
		 * are partially overlapping, and if they are 0 is returned to
		 * indicate failure"; out == in is in-place encryption, which
		 * later editions of the page state outright. */
		.chacha_overlap = LOCKSTEP_OVERLAP_INPLACE,
		/* The key and IV copies above stay on the stack. */
		.wipes = false,
	},
};

LOCKSTEP_MODULE("openssl", backends);
