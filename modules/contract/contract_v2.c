/*
 * A module built against ABI version 2 that declares each overlap contract
 * once, and wiping on one backend (module_contract_test.cpp). Its
 * contract-v2:in-place backend encrypts the blocks of a call last to first:
 * right in place and apart, wrong when dst lies just below src, where a
 * block's store lands on source bytes not yet read. It declares in-place
 * only, so conformance reports that case as outside its declared contract
 * (outside_contract_test.sh), a SKIP, where the same code declaring
 * nothing fails (the teeth module chacha/teeth:stale-overlap).
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <string.h>

#include "../teeth/teeth.h"

/* After the work, a frame of zeros as deep as the callee's went: the
 * stack it left the key words and keystream on (libgcrypt's burn_stack). */
static __attribute__((noinline)) void burn_stack(void)
{
	unsigned char frame[2048];

	explicit_bzero(frame, sizeof frame);
	__asm__ volatile("" : : "r"(frame) : "memory");
}

static void crypt_backwards(struct lockstep_chacha_state *state, uint8_t *dst,
			    const uint8_t *src, size_t len, int nrounds)
{
	const size_t nblocks = (len + 63) / 64;
	struct lockstep_chacha_state one;
	size_t b;

	for (b = nblocks; b-- > 0;) {
		const size_t n = (b + 1 == nblocks && len % 64) ? len % 64 : 64;

		one = *state;
		one.x[12] += (uint32_t)b;
		teeth_chacha_crypt(&one, dst + 64 * b, src + 64 * b, n, nrounds);
	}
	state->x[12] += (uint32_t)nblocks;
	explicit_bzero(&one, sizeof one);
	burn_stack();
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "contract-v2:in-place",
		.notes = "in-place only, wipes; blocks last to first",
		.chacha_crypt = crypt_backwards,
		.chacha_overlap = LOCKSTEP_OVERLAP_INPLACE,
		.wipes = true,
	},
	{
		.family = "chacha",
		.name = "contract-v2:apart",
		.notes = "dst and src apart only",
		.chacha_crypt = teeth_chacha_crypt,
		.chacha_overlap = LOCKSTEP_OVERLAP_NONE,
	},
	{
		.family = "chacha",
		.name = "contract-v2:default",
		.notes = "declares neither: any overlap, no wiping",
		.chacha_crypt = teeth_chacha_crypt,
	},
};

LOCKSTEP_MODULE("contract-v2", backends);
