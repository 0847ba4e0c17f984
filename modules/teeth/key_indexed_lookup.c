/*
 * chacha/teeth:key-indexed-lookup, class n. Correct output; reads a table
 * at an index taken from a key byte on every call, the cache-timing leak of
 * table-driven ciphers. Every result is right, so only the ct column, which
 * runs the backend under memcheck with the key marked undefined, sees it.
 */
#include "teeth.h"

/* Not static: the compiler may not fold a read of it to a constant. */
TEETH_HIDDEN uint8_t teeth_lookup_table[256];
static volatile uint8_t sink;

static void crypt(struct lockstep_chacha_state *state, uint8_t *dst, const uint8_t *src, size_t len,
		  int nrounds)
{
	/* Planted: an address that depends on key word 4. */
	sink = teeth_lookup_table[state->x[4] & 0xff];
	teeth_chacha_crypt(state, dst, src, len, nrounds);
}

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "teeth:key-indexed-lookup",
		.notes = "planted defect: a table read at an index taken from the key",
		.chacha_crypt = crypt,
	},
};

LOCKSTEP_MODULE("teeth-chacha-key-indexed-lookup", backends);
