/*
 * lockstep module over libsodium 1.0.18: its IETF ChaCha20 stream and
 * HChaCha20, whose implementation libsodium picks for the CPU at
 * sodium_init() (reference C, SSSE3 or AVX2).
 */
#include <lockstep/module.h>

#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>

/* libsodium selects its ChaCha20 implementation here; before it every call
 * would run the reference code, whatever the CPU. */
__attribute__((constructor))
static void init_sodium(void)
{
	if (sodium_init() < 0) {
		fprintf(stderr, "libsodium module: sodium_init failed\n");
		abort();
	}
}

static void check_rounds(int nrounds)
{
	if (nrounds != 20) {
		fprintf(stderr, "libsodium module: libsodium's ChaCha20 has 20 "
				"rounds, not %d\n", nrounds);
		abort();
	}
}

static void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void chacha_crypt(struct lockstep_chacha_state *state, uint8_t *dst,
			 const uint8_t *src, size_t len, int nrounds)
{
	uint8_t key[32], nonce[12];
	uint32_t counter = state->x[12];
	int i;

	check_rounds(nrounds);
	for (i = 0; i < 8; i++)
		store_le32(key + 4 * i, state->x[4 + i]);
	for (i = 0; i < 3; i++)
		store_le32(nonce + 4 * i, state->x[13 + i]);

	/*
	 * crypto_stream_chacha20_ietf_xor_ic() calls sodium_misuse(), which
	 * aborts, when a call would step the counter past 2^32 - 1: its
	 * implementations keep a 64-bit counter and would carry into the
	 * nonce. So cut the input where the counter wraps and start the rest
	 * at 0 ourselves: RFC 8439's wrap, with libsodium doing every block.
	 * A piece is then at most 2^32 blocks, which its length limit allows.
	 * Zero length returns before the call: its pointers must be non-null.
	 */
	while (len > 0) {
		uint64_t left = ((uint64_t)1 << 32) - counter;
		size_t piece = len;
		uint64_t blocks;

		if ((uint64_t)piece > left * 64)
			piece = (size_t)(left * 64);
		if (crypto_stream_chacha20_ietf_xor_ic(dst, src, piece, nonce,
						       counter, key) != 0) {
			fprintf(stderr, "libsodium module: "
					"crypto_stream_chacha20_ietf_xor_ic failed\n");
			abort();
		}
		blocks = piece / 64 + (piece % 64 != 0);
		counter = (uint32_t)(counter + blocks);
		dst += piece;
		src += piece;
		len -= piece;
	}
	state->x[12] = counter;
}

static void hchacha(const struct lockstep_chacha_state *state, uint32_t out[8],
		    int nrounds)
{
	uint8_t key[32], in[16], res[32];
	int i;

	check_rounds(nrounds);
	for (i = 0; i < 8; i++)
		store_le32(key + 4 * i, state->x[4 + i]);
	for (i = 0; i < 4; i++)
		store_le32(in + 4 * i, state->x[12 + i]);
	/* NULL constants: "expand 32-byte k", the words lockstep sets up. */
	if (crypto_core_hchacha20(res, in, key, NULL) != 0) {
		fprintf(stderr, "libsodium module: crypto_core_hchacha20 failed\n");
		abort();
	}
	for (i = 0; i < 8; i++)
		out[i] = load_le32(res + 4 * i);
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "sodium:chacha20_ietf_xor_ic",
		.needs = "",
		.notes = "libsodium " SODIUM_VERSION_STRING " crypto_stream_chacha20_ietf_xor_ic, crypto_core_hchacha20",
		.chacha_crypt = chacha_crypt,
		.hchacha = hchacha,
		.chacha_counter = LOCKSTEP_COUNTER_WRAP32,
		.chacha_rounds = LOCKSTEP_ROUNDS_20,
		/* libsodium's documentation of crypto_stream_chacha20_xor_ic
		 * (doc.libsodium.org, "ChaCha20"): "m and c can point to the
		 * same address (in-place encryption/decryption). If they
		 * don't, the regions should not overlap." */
		.chacha_overlap = LOCKSTEP_OVERLAP_INPLACE,
		/* The key and nonce copies above stay on the stack. */
		.wipes = false,
	},
};

LOCKSTEP_MODULE("libsodium", backends);
