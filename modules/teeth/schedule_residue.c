/*
 * sha512/teeth:schedule-residue, class q. Correct digests; declares that it
 * wipes, and makes its message schedule with VSHA512MSG1 (Intel's SHA512
 * extension: the sha512ext trap emulator runs it where the CPU has none)
 * into a stack array it never clears. The residue column must still see
 * that array under the emulator: the emulator clears what it wrote itself
 * (emulation/sha512ext/site_patch.h), never what the code it runs wrote.
 */
#include "teeth.h"

/*
 * VSHA512MSG1 ymm0, xmm1 (VEX.256.F2.0F38.W0 CC /r): qword i of ymm0 gains
 * sigma0 of the next word, for W[t..t+3] in ymm0 and W[t+4] in xmm1.
 */
static void msg1(uint64_t out[4], const uint64_t w[5])
{
	__asm__ __volatile__("vmovdqu (%1), %%ymm0\n\t"
			     "vmovq 32(%1), %%xmm1\n\t"
			     ".byte 0xc4, 0xe2, 0x7f, 0xcc, 0xc1\n\t"
			     "vmovdqu %%ymm0, (%0)\n\t"
			     "vzeroupper"
			     :
			     : "r"(out), "r"(w)
			     : "xmm0", "xmm1", "memory");
}

static void blocks(struct lockstep_sha512_state *state, const uint8_t *data, size_t nblocks)
{
	uint64_t w[80];
	int t, i;

	while (nblocks--) {
		for (t = 0; t < 16; t++)
			w[t] = teeth_load_be64(data + 8 * t);
		for (t = 16; t < 80; t += 4) {
			uint64_t part[4];

			msg1(part, &w[t - 16]);
			for (i = 0; i < 4; i++)
				w[t + i] = part[i] + w[t + i - 7] + teeth_sha512_sigma1(w[t + i - 2]);
		}
		teeth_sha512_rounds(state->h, w);
		data += 128;
	}
	/* Planted: memzero_explicit(w, sizeof w) belongs here. */
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha512",
		.name = "teeth:schedule-residue",
		.needs = "sha512",
		.notes = "planted defect: declares wipes and leaves its VSHA512MSG1 message schedule on the stack",
		.sha512_blocks = blocks,
		.wipes = true,
	},
};

LOCKSTEP_MODULE("teeth-sha512-schedule-residue", backends);
