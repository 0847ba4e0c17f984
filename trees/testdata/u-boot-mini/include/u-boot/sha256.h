/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 of lockstep's miniature U-Boot tree, with the interface U-Boot's
 * callers use (common/hash.c's table names these functions): a context of
 * two 32-bit byte-count words, the eight chaining words and a block
 * buffer, started, updated and finished; a one-shot hash that resets the
 * watchdog every chunk_sz bytes; and the block function an arch glue may
 * override.
 */
#ifndef _SHA256_H
#define _SHA256_H

#include <linux/types.h>

#define SHA256_SUM_LEN 32
/* The watchdog is reset after each chunk of this many bytes. */
#define CHUNKSZ_SHA256 (64 * 1024)

typedef struct {
	uint32_t total[2];
	uint32_t state[8];
	uint8_t buffer[64];
} sha256_context;

void sha256_starts(sha256_context *ctx);
void sha256_update(sha256_context *ctx, const uint8_t *input, uint32_t length);
void sha256_finish(sha256_context *ctx, uint8_t digest[SHA256_SUM_LEN]);
void sha256_csum_wd(const unsigned char *input, unsigned int ilen, unsigned char *output,
		    unsigned int chunk_sz);

/* Compress `blocks` 64-byte blocks; weak in lib/sha256.c. */
void sha256_process(sha256_context *ctx, const unsigned char *data, unsigned int blocks);

#endif /* _SHA256_H */
