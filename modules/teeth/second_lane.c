/*
 * sha256/teeth:second-lane, class e. Its finup_2x runs two lanes; for the
 * block that completes a partial prefix, the second lane is handed the
 * first lane's bytes. The first digest is always right, the second only
 * when the prefix was whole blocks or the messages start alike.
 */
#include <string.h>

#include "teeth.h"

static bool finup_2x(const struct lockstep_sha256_ctx *ctx, const uint8_t *data1,
		     const uint8_t *data2, size_t len, uint8_t out1[32], uint8_t out2[32])
{
	struct lockstep_sha256_ctx a = *ctx, b = *ctx;
	size_t fill = ctx->bytecount % 64;
	size_t head = fill ? 64 - fill : 0;
	uint8_t md1[32], md2[32];

	if (head > len)
		head = len;
	teeth_sha256_update(&a, data1, head);
	/* Planted: data1, where lane two's own bytes are data2. */
	teeth_sha256_update(&b, data1, head);
	teeth_sha256_update(&a, data1 + head, len - head);
	teeth_sha256_update(&b, data2 + head, len - head);
	teeth_sha256_final(&a, md1);
	teeth_sha256_final(&b, md2);
	/* Stored last: the outputs may overlap the inputs. */
	memcpy(out1, md1, sizeof md1);
	memcpy(out2, md2, sizeof md2);
	return true;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "teeth:second-lane",
		.notes = "planted defect: finup_2x's second digest is wrong after a partial prefix",
		.sha256_blocks = planted_sha256_portable_blocks,
		.sha256_finup_2x = finup_2x,
	},
};

LOCKSTEP_MODULE("teeth-second-lane", backends);
