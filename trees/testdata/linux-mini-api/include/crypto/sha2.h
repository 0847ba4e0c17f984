/* SPDX-License-Identifier: MIT */
/*
 * The SHA-2 sizes and states of lockstep's miniature of the older layout,
 * in the shape the kernel's include/crypto/sha2.h gives them (5.11 to
 * 6.16): what its glue and sha256_base.h share.
 */
#ifndef _CRYPTO_SHA2_H
#define _CRYPTO_SHA2_H

#include <linux/types.h>

#define SHA224_DIGEST_SIZE	28
#define SHA224_BLOCK_SIZE	64
#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64
#define SHA384_DIGEST_SIZE	48
#define SHA512_DIGEST_SIZE	64
#define SHA512_BLOCK_SIZE	128

/* FIPS 180-4, 5.3.2 and 5.3.3. */
#define SHA224_H0	0xc1059ed8UL
#define SHA224_H1	0x367cd507UL
#define SHA224_H2	0x3070dd17UL
#define SHA224_H3	0xf70e5939UL
#define SHA224_H4	0xffc00b31UL
#define SHA224_H5	0x68581511UL
#define SHA224_H6	0x64f98fa7UL
#define SHA224_H7	0xbefa4fa4UL

#define SHA256_H0	0x6a09e667UL
#define SHA256_H1	0xbb67ae85UL
#define SHA256_H2	0x3c6ef372UL
#define SHA256_H3	0xa54ff53aUL
#define SHA256_H4	0x510e527fUL
#define SHA256_H5	0x9b05688cUL
#define SHA256_H6	0x1f83d9abUL
#define SHA256_H7	0x5be0cd19UL

struct sha256_state {
	u32 state[SHA256_DIGEST_SIZE / 4];
	u64 count;
	u8 buf[SHA256_BLOCK_SIZE];
};

struct sha512_state {
	u64 state[SHA512_DIGEST_SIZE / 8];
	u64 count[2];
	u8 buf[SHA512_BLOCK_SIZE];
};

struct shash_desc;

int crypto_sha256_update(struct shash_desc *desc, const u8 *data, unsigned int len);
int crypto_sha256_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *hash);

#endif /* _CRYPTO_SHA2_H */
