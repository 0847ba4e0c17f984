/*
 * The generic SHA-256 block function a tree's glue falls back to
 * (sha256_blocks_generic, as lib/crypto/sha256.c names it), compiled into
 * every tree module of the family: FIPS 180-4, section 6.2.2.
 */
#include <stddef.h>
#include <stdint.h>

struct sha256_block_state;

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void sha256_blocks_generic(struct sha256_block_state *state, const uint8_t *data, size_t nblocks)
{
	uint32_t *h = (uint32_t *)state;

	for (; nblocks > 0; nblocks--, data += 64) {
		uint32_t w[64], s[8];
		int t;

		for (t = 0; t < 16; t++)
			w[t] = be32(data + 4 * t);
		for (t = 16; t < 64; t++) {
			uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18) ^ (w[t - 15] >> 3);
			uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19) ^ (w[t - 2] >> 10);

			w[t] = w[t - 16] + s0 + w[t - 7] + s1;
		}
		for (t = 0; t < 8; t++)
			s[t] = h[t];
		for (t = 0; t < 64; t++) {
			uint32_t e = s[4], a = s[0];
			uint32_t t1 = s[7] + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) +
				      ((e & s[5]) ^ (~e & s[6])) + k[t] + w[t];
			uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) +
				      ((a & s[1]) ^ (a & s[2]) ^ (s[1] & s[2]));

			s[7] = s[6];
			s[6] = s[5];
			s[5] = s[4];
			s[4] = s[3] + t1;
			s[3] = s[2];
			s[2] = s[1];
			s[1] = s[0];
			s[0] = t1 + t2;
		}
		for (t = 0; t < 8; t++)
			h[t] += s[t];
	}
}
