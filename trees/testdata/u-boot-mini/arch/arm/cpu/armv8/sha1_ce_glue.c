// SPDX-License-Identifier: MIT
/*
 * sha1_ce_glue.c of lockstep's miniature U-Boot tree: present so that the
 * tree has U-Boot's SHA-1 glue too, which lockstep (no SHA-1 family) must
 * report as a SKIP of its own rather than leave out. Not built.
 */
#include <u-boot/sha1.h>

void sha1_armv8_ce_process(uint32_t state[5], const uint8_t *src, uint32_t blocks);

void sha1_process(sha1_context *ctx, const unsigned char *data, unsigned int blocks)
{
	if (blocks == 0)
		return;
	sha1_armv8_ce_process(ctx->state, data, blocks);
}
