/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 of lockstep's miniature U-Boot tree, shaped as its SHA-256
 * (u-boot/sha256.h): a context of the eight 64-bit chaining words, a
 * 128-bit byte count and a block buffer; the one-shot hash with watchdog
 * chunks; the block function an arch glue may override.
 */
#ifndef _SHA512_H
#define _SHA512_H

#include <linux/types.h>

#define SHA512_SUM_LEN 64
#define CHUNKSZ_SHA512 (64 * 1024)

typedef struct {
	uint64_t state[8];
	uint64_t count[2];
	uint8_t buf[128];
} sha512_context;

void sha512_starts(sha512_context *ctx);
void sha512_update(sha512_context *ctx, const uint8_t *input, uint32_t length);
void sha512_finish(sha512_context *ctx, uint8_t digest[SHA512_SUM_LEN]);
void sha512_csum_wd(const unsigned char *input, unsigned int ilen, unsigned char *output,
		    unsigned int chunk_sz);

/* Compress `blocks` 128-byte blocks; weak in lib/sha512.c. */
void sha512_process(sha512_context *ctx, const unsigned char *data, unsigned int blocks);

#endif /* _SHA512_H */
