// SPDX-License-Identifier: MIT
/* Byte-buffer helpers of lockstep's miniature tree. */
#include <crypto/utils.h>
#include <linux/export.h>

void __crypto_xor(u8 *dst, const u8 *src1, const u8 *src2, unsigned int size)
{
	while (size--)
		*dst++ = *src1++ ^ *src2++;
}
EXPORT_SYMBOL_GPL(__crypto_xor);
