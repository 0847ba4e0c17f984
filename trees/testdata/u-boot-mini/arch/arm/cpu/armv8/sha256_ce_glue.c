// SPDX-License-Identifier: MIT
/*
 * sha256_ce_glue.c of lockstep's miniature U-Boot tree: the arch override
 * of lib/sha256.c's weak sha256_process(), chosen as U-Boot chooses it, by
 * the board's Kconfig (the Makefile builds this file where
 * CONFIG_ARMV8_CE_SHA256 is set) and never by the CPU it runs on.
 */
#include <u-boot/sha256.h>

void sha256_armv8_ce_process(uint32_t state[8], const uint8_t *src, uint32_t blocks);

void sha256_process(sha256_context *ctx, const unsigned char *data,
		    unsigned int blocks)
{
	/* The assembly counts down after each block: it must get one at least. */
	if (blocks == 0)
		return;
	sha256_armv8_ce_process(ctx->state, data, blocks);
}
