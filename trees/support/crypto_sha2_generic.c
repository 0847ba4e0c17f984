/*
 * The generic SHA-2 drivers' update and finup a glue falls back to where
 * it may not use SIMD (crypto_sha256_update() and its kind, in the
 * kernel's crypto/sha256_generic.c and sha512_generic.c): the tree's own
 * sha256_base.h and sha512_base.h over lockstep's generic block functions.
 */
#if __has_include(<crypto/sha256_base.h>)
#include <crypto/sha256_base.h>

void sha256_blocks_generic(struct sha256_block_state *state, const u8 *data, size_t nblocks);

static void generic256(struct sha256_state *sst, const u8 *src, int blocks)
{
	sha256_blocks_generic((struct sha256_block_state *)sst->state, src, (size_t)blocks);
}

int crypto_sha256_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	return sha256_base_do_update(desc, data, len, generic256);
}

int crypto_sha256_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	if (len)
		sha256_base_do_update(desc, data, len, generic256);
	sha256_base_do_finalize(desc, generic256);
	return sha256_base_finish(desc, out);
}

#endif

#if __has_include(<crypto/sha512_base.h>)
#include <crypto/sha512_base.h>

void sha512_blocks_generic(struct sha512_block_state *state, const u8 *data, size_t nblocks);

static void generic512(struct sha512_state *sst, const u8 *src, int blocks)
{
	sha512_blocks_generic((struct sha512_block_state *)sst->state, src, (size_t)blocks);
}

int crypto_sha512_update(struct shash_desc *desc, const u8 *data, unsigned int len)
{
	return sha512_base_do_update(desc, data, len, generic512);
}

int crypto_sha512_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out)
{
	if (len)
		sha512_base_do_update(desc, data, len, generic512);
	sha512_base_do_finalize(desc, generic512);
	return sha512_base_finish(desc, out);
}
#endif
