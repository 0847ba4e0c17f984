/*
 * A module built as one was before ABI version 2: LOCKSTEP_MODULE_ABI_VERSION
 * 1, so its struct lockstep_backend has the version 1 layout, without
 * chacha_overlap and wipes. Its two backends differ in chacha_rounds, so a
 * loader that indexed the array with the version 2 element size would read
 * the second from the wrong bytes (module_contract_test.cpp).
 */
#define LOCKSTEP_MODULE_ABI_VERSION 1
#include "../teeth/teeth.h"

/* Nine pointers and two ints, nothing after chacha_rounds: version 1. */
_Static_assert(sizeof(struct lockstep_backend) == 9 * sizeof(void *) + 2 * sizeof(int),
	       "not the version 1 layout");

static const struct lockstep_backend backends[] = {
	{
		.family = "chacha",
		.name = "contract-v1:first",
		.notes = "ABI version 1: nothing declared past chacha_rounds",
		.chacha_crypt = teeth_chacha_crypt,
	},
	{
		.family = "chacha",
		.name = "contract-v1:second",
		.notes = "ABI version 1, 20 rounds only",
		.chacha_crypt = teeth_chacha_crypt,
		.chacha_rounds = LOCKSTEP_ROUNDS_20,
	},
};

LOCKSTEP_MODULE("contract-v1", backends);
