/*
 * The teeth modules' shared, correct parts. Each planted module wraps these
 * and breaks one thing, so that a check which fails on it fails for that
 * one defect. Hidden: nothing outside a module sees them.
 */
#ifndef LOCKSTEP_TEETH_H
#define LOCKSTEP_TEETH_H

#include <stddef.h>
#include <stdint.h>

#include "lockstep/module.h"

#define TEETH_HIDDEN __attribute__((visibility("hidden")))

/* ../planted/sha256_portable.c: the sha256_blocks contract, done plainly. */
TEETH_HIDDEN void planted_sha256_portable_blocks(struct lockstep_sha256_state *state,
						 const uint8_t *data, size_t nblocks);

/* sha512_portable.c: the same for sha512_blocks; its parts, for a module
 * that makes the message schedule its own way: the 80 rounds over a
 * schedule w, the schedule's small sigmas, a big-endian load. */
TEETH_HIDDEN void teeth_sha512_blocks(struct lockstep_sha512_state *state,
				      const uint8_t *data, size_t nblocks);
TEETH_HIDDEN void teeth_sha512_rounds(uint64_t h[8], const uint64_t w[80]);
TEETH_HIDDEN uint64_t teeth_sha512_sigma0(uint64_t x);
TEETH_HIDDEN uint64_t teeth_sha512_sigma1(uint64_t x);
TEETH_HIDDEN uint64_t teeth_load_be64(const uint8_t *p);

/* sha256_ctx.c: update and finish a copy of a finup_2x context, as the
 * front end does; teeth_sha256_pad takes the length field's bit count from
 * its caller. */
TEETH_HIDDEN void teeth_sha256_update(struct lockstep_sha256_ctx *ctx,
				      const uint8_t *data, size_t len);
TEETH_HIDDEN void teeth_sha256_pad(struct lockstep_sha256_ctx *ctx, uint64_t bits,
				   uint8_t out[32]);
TEETH_HIDDEN void teeth_sha256_final(struct lockstep_sha256_ctx *ctx, uint8_t out[32]);
TEETH_HIDDEN void teeth_store_be32(uint8_t *p, uint32_t v);
TEETH_HIDDEN void teeth_store_be64(uint8_t *p, uint64_t v);

/* chacha_portable.c: one keystream block for the sixteen words `in`, and a
 * correct chacha_crypt (RFC 8439's 32-bit counter wrap). */
TEETH_HIDDEN void teeth_chacha_block(const uint32_t in[16], uint8_t out[64], int nrounds);
TEETH_HIDDEN void teeth_chacha_crypt(struct lockstep_chacha_state *state, uint8_t *dst,
				     const uint8_t *src, size_t len, int nrounds);

#endif
