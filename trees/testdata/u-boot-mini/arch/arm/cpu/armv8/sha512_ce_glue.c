// SPDX-License-Identifier: MIT
/*
 * sha512_ce_glue.c of lockstep's miniature U-Boot tree, as a SHA-512
 * series for U-Boot proposes it: the override of lib/sha512.c's weak
 * sha512_process(), built where the board sets CONFIG_ARMV8_CE_SHA512.
 * The instructions it calls are ARMv8.2's; nothing here asks the CPU.
 */
#include <u-boot/sha512.h>

void sha512_armv8_ce_process(uint64_t state[8], const uint8_t *src, uint32_t blocks);

void sha512_process(sha512_context *ctx, const unsigned char *data,
		    unsigned int blocks)
{
	/* The assembly counts down after each block: it must get one at least. */
	if (blocks == 0)
		return;
	sha512_armv8_ce_process(ctx->state, data, blocks);
}
