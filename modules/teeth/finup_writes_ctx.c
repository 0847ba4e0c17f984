/*
 * sha256/teeth:finup-writes-ctx, class i. Its finup_2x finishes the first
 * message in the caller's context itself instead of a copy, so both
 * digests are right and the context (read only, module.h) is not.
 */
#include <string.h>

#include "teeth.h"

static bool finup_2x(const struct lockstep_sha256_ctx *ctx, const uint8_t *data1,
		     const uint8_t *data2, size_t len, uint8_t out1[32], uint8_t out2[32])
{
	struct lockstep_sha256_ctx b = *ctx;
	/* Planted: the caller's context, where a copy was due. */
	struct lockstep_sha256_ctx *a = (struct lockstep_sha256_ctx *)(uintptr_t)ctx;
	uint8_t md1[32], md2[32];

	teeth_sha256_update(&b, data2, len);
	teeth_sha256_final(&b, md2);
	teeth_sha256_update(a, data1, len);
	teeth_sha256_final(a, md1);
	memcpy(out1, md1, sizeof md1);
	memcpy(out2, md2, sizeof md2);
	return true;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "teeth:finup-writes-ctx",
		.notes = "planted defect: finup_2x finishes in the context it is given",
		.sha256_blocks = planted_sha256_portable_blocks,
		.sha256_finup_2x = finup_2x,
	},
};

LOCKSTEP_MODULE("teeth-finup-writes-ctx", backends);
