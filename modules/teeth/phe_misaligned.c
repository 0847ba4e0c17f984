/*
 * sha256/teeth:phe-misaligned and sha512/teeth:phe-misaligned (with
 * TEETH_SHA512), class j. REP XSHA256 / REP XSHA512 in block mode, handed
 * the caller's state where it lies. The engine wants it 16-byte aligned;
 * lockstep's contexts promise 8, so a context at 8 mod 16 gets a state the
 * engine (and lockstep's PHE trap emulator, which aborts) refuses. The
 * correct way copies it to an aligned buffer (impl/sha2/x86_phe.h).
 */
#include "teeth.h"

#if defined(TEETH_SHA512)
#define FAMILY "sha512"
#define NEEDS "phe2"
#define MODRM "0xe0"
typedef struct lockstep_sha512_state state_t;
#else
#define FAMILY "sha256"
#define NEEDS "phe"
#define MODRM "0xd0"
typedef struct lockstep_sha256_state state_t;
#endif

static void blocks(state_t *state, const uint8_t *data, size_t nblocks)
{
	unsigned long mode = ~0ul; /* EAX = -1: block mode */
	unsigned long count = nblocks;

	/* Planted: RDI is the caller's state, aligned or not. */
	__asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, " MODRM
			     : "+a"(mode), "+c"(count), "+S"(data)
			     : "D"(state)
			     : "memory", "cc");
}

static const struct lockstep_backend backends[] = {
	{
		.family = FAMILY,
		.name = "teeth:phe-misaligned",
		.needs = NEEDS,
		.notes = "planted defect: REP XSHA on the caller's state, which may be 8 mod 16",
#if defined(TEETH_SHA512)
		.sha512_blocks = blocks,
#else
		.sha256_blocks = blocks,
#endif
	},
};

LOCKSTEP_MODULE("teeth-" FAMILY "-phe-misaligned", backends);
