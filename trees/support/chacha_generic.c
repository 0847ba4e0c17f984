/*
 * The generic ChaCha functions a tree's glue falls back to
 * (chacha_crypt_generic, hchacha_block_generic, as lib/crypto/chacha.c
 * names them), compiled into every tree module of the family: RFC 8439,
 * section 2.3, with the kernel's 32-bit block counter in word 12 (it
 * wraps, as RFC 8439's does), and HChaCha (draft-irtf-cfrg-xchacha,
 * section 2.2). Built, as every file of a tree module, with
 * lockstep/kernel_compat.h ahead: struct chacha_state is the kernel's.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static uint32_t rol32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

#define QUARTER(a, b, c, d)                                                    \
	do {                                                                   \
		a += b; d = rol32(d ^ a, 16);                                   \
		c += d; b = rol32(b ^ c, 12);                                   \
		a += b; d = rol32(d ^ a, 8);                                    \
		c += d; b = rol32(b ^ c, 7);                                    \
	} while (0)

static void permute(uint32_t x[16], int nrounds)
{
	for (int i = 0; i < nrounds; i += 2) {
		QUARTER(x[0], x[4], x[8], x[12]);
		QUARTER(x[1], x[5], x[9], x[13]);
		QUARTER(x[2], x[6], x[10], x[14]);
		QUARTER(x[3], x[7], x[11], x[15]);
		QUARTER(x[0], x[5], x[10], x[15]);
		QUARTER(x[1], x[6], x[11], x[12]);
		QUARTER(x[2], x[7], x[8], x[13]);
		QUARTER(x[3], x[4], x[9], x[14]);
	}
}

void chacha_crypt_generic(struct chacha_state *state, uint8_t *dst, const uint8_t *src,
			  unsigned int bytes, int nrounds)
{
	while (bytes) {
		uint32_t x[16];
		uint8_t stream[64];
		unsigned int n = bytes < 64 ? bytes : 64;

		memcpy(x, state->x, sizeof x);
		permute(x, nrounds);
		for (int i = 0; i < 16; i++) {
			uint32_t w = x[i] + state->x[i];

			stream[4 * i] = (uint8_t)w;
			stream[4 * i + 1] = (uint8_t)(w >> 8);
			stream[4 * i + 2] = (uint8_t)(w >> 16);
			stream[4 * i + 3] = (uint8_t)(w >> 24);
		}
		for (unsigned int i = 0; i < n; i++)
			dst[i] = src[i] ^ stream[i];
		state->x[12]++;
		dst += n;
		src += n;
		bytes -= n;
	}
}

void hchacha_block_generic(const struct chacha_state *state, uint32_t out[8], int nrounds)
{
	uint32_t x[16];

	memcpy(x, state->x, sizeof x);
	permute(x, nrounds);
	memcpy(out, x, 4 * sizeof(uint32_t));
	memcpy(out + 4, x + 12, 4 * sizeof(uint32_t));
}
