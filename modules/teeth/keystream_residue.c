/*
 * chacha/teeth:keystream-residue, class m. Correct output; declares that it
 * wipes its secrets (module.h's wipes), and leaves its last keystream block
 * in a stack buffer: the memzero_explicit() of the kernel's chacha tail
 * path, dropped. Every result is right, so only the residue column, which
 * reads the stack after the call, sees it.
 */
#include <string.h>

#include "teeth.h"

static void crypt(struct lockstep_chacha_state *state, uint8_t *dst, const uint8_t *src, size_t len,
		  int nrounds)
{
	uint8_t ks[64];

	while (len) {
		size_t n = len < 64 ? len : 64;
		size_t i;

		teeth_chacha_block(state->x, ks, nrounds);
		for (i = 0; i < n; i++)
			dst[i] = src[i] ^ ks[i];
		state->x[12]++;
		dst += n;
		src += n;
		len -= n;
	}
	/* Planted: explicit_bzero(ks, sizeof ks) belongs here. An empty asm
	 * that reads ks keeps the compiler from dropping the stores. */
	__asm__ __volatile__("" : : "r"(ks) : "memory");
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "teeth:keystream-residue",
		.notes = "planted defect: declares wipes and leaves a keystream block on the stack",
		.chacha_crypt = crypt,
		.wipes = true,
	},
};

LOCKSTEP_MODULE("teeth-chacha-keystream-residue", backends);
