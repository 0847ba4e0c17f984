/* SPDX-License-Identifier: MIT */
/* XOR of byte buffers, for lockstep's miniature tree (lib/crypto/utils.c). */
#ifndef _CRYPTO_UTILS_H
#define _CRYPTO_UTILS_H

#include <linux/types.h>

void __crypto_xor(u8 *dst, const u8 *src1, const u8 *src2, unsigned int size);

static inline void crypto_xor_cpy(u8 *dst, const u8 *src1, const u8 *src2, unsigned int size)
{
	__crypto_xor(dst, src1, src2, size);
}

#endif /* _CRYPTO_UTILS_H */
