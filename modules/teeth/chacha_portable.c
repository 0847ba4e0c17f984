/*
 * A plain ChaCha (RFC 8439, section 2.3) for the planted chacha modules:
 * the block function, and a crypt whose 32-bit counter wraps as lockstep's
 * own backends do. Each planted module runs its own path on top of these.
 */
#include <string.h>

#include "teeth.h"

static uint32_t rotl(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void quarter(uint32_t *x, int a, int b, int c, int d)
{
	x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
	x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
	x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
	x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
}

void teeth_chacha_block(const uint32_t in[16], uint8_t out[64], int nrounds)
{
	uint32_t x[16];
	int i;

	memcpy(x, in, sizeof x);
	for (i = 0; i < nrounds; i += 2) {
		quarter(x, 0, 4, 8, 12);
		quarter(x, 1, 5, 9, 13);
		quarter(x, 2, 6, 10, 14);
		quarter(x, 3, 7, 11, 15);
		quarter(x, 0, 5, 10, 15);
		quarter(x, 1, 6, 11, 12);
		quarter(x, 2, 7, 8, 13);
		quarter(x, 3, 4, 9, 14);
	}
	for (i = 0; i < 16; i++) {
		uint32_t v = x[i] + in[i];

		out[4 * i] = (uint8_t)v;
		out[4 * i + 1] = (uint8_t)(v >> 8);
		out[4 * i + 2] = (uint8_t)(v >> 16);
		out[4 * i + 3] = (uint8_t)(v >> 24);
	}
}

void teeth_chacha_crypt(struct lockstep_chacha_state *state, uint8_t *dst,
			const uint8_t *src, size_t len, int nrounds)
{
	uint8_t ks[64];

	while (len) {
		size_t n = len < 64 ? len : 64;
		size_t i;

		teeth_chacha_block(state->x, ks, nrounds);
		/* Byte by byte, front to back: dst may sit below src. */
		for (i = 0; i < n; i++)
			dst[i] = src[i] ^ ks[i];
		state->x[12]++;
		dst += n;
		src += n;
		len -= n;
	}
}
