/*
 * The planted modules' shared parts: a correct SHA-256 compression in C,
 * and the assembly wrapper (one per architecture) that breaks the calling
 * convention before running it. Hidden: nothing outside the module sees
 * either, and the wrapper reaches the C function without a PLT.
 */
#ifndef LOCKSTEP_PLANTED_H
#define LOCKSTEP_PLANTED_H

#include <stddef.h>
#include <stdint.h>

#include "lockstep/module.h"

/* sha256_portable.c: the kernel's sha256_blocks contract, done plainly. */
__attribute__((visibility("hidden"))) void
planted_sha256_portable_blocks(struct lockstep_sha256_state *state,
			       const uint8_t *data, size_t nblocks);

/* clobber_*.S: the same, with one callee-saved register overwritten. */
__attribute__((visibility("hidden"))) void
planted_sha256_blocks(struct lockstep_sha256_state *state,
		      const uint8_t *data, size_t nblocks);

#endif
