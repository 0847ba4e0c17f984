/*
 * lockstep's model of U-Boot's common/hash.c, over the tree's own front
 * end. U-Boot's file reaches into the command line, the environment
 * variables and the memory map; what `hash sha256 <addr> <len>` runs of it
 * is this: hash_lookup_algo() finds the algorithm in a table, then
 * hash_func_ws() hashes the buffer in one shot, in chunk_size pieces
 * between watchdog resets; a progressive user (image verification of
 * scattered regions) has hash_init(), hash_update() and hash_finish()
 * instead. The SHA-2 entries are the ones U-Boot's table has where the
 * board's Kconfig sets CONFIG_SHA256 or CONFIG_SHA512: the tree's
 * sha256_csum_wd() with CHUNKSZ_SHA256, and a context of the tree's own
 * type allocated per progressive hash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hash.h>
#include <linux/types.h>

#ifdef CONFIG_SHA256
#if __has_include(<u-boot/sha256.h>)
#include <u-boot/sha256.h>
#else
#include <sha256.h> /* before 2013: include/sha256.h */
#endif
#endif
#ifdef CONFIG_SHA512
#include <u-boot/sha512.h>
#endif

/* The progressive functions of one algorithm, on the tree's context type
 * and its starts/update/finish, as common/hash.c defines them per
 * algorithm: a context from the heap, freed when the digest is out. */
#define PROGRESSIVE(alg)                                                                     \
	static int hash_init_##alg(struct hash_algo *algo, void **ctxp)                      \
	{                                                                                     \
		alg##_context *ctx = malloc(sizeof(*ctx));                                    \
		(void)algo;                                                                   \
		if (!ctx)                                                                     \
			return -ENOMEM;                                                       \
		alg##_starts(ctx);                                                            \
		*ctxp = ctx;                                                                  \
		return 0;                                                                     \
	}                                                                                     \
	static int hash_update_##alg(struct hash_algo *algo, void *ctx, const void *buf,     \
				     unsigned int size, int is_last)                          \
	{                                                                                     \
		(void)algo, (void)is_last;                                                    \
		alg##_update(ctx, buf, size);                                                 \
		return 0;                                                                     \
	}                                                                                     \
	static int hash_finish_##alg(struct hash_algo *algo, void *ctx, void *dest_buf, int size) \
	{                                                                                     \
		if (size < algo->digest_size)                                                 \
			return -1;                                                            \
		alg##_finish(ctx, dest_buf);                                                  \
		free(ctx);                                                                    \
		return 0;                                                                     \
	}

#ifdef CONFIG_SHA256
PROGRESSIVE(sha256)
#endif
#ifdef CONFIG_SHA512
PROGRESSIVE(sha512)
#endif

static struct hash_algo hash_algo[] = {
#ifdef CONFIG_SHA256
	{"sha256", SHA256_SUM_LEN, sha256_csum_wd, CHUNKSZ_SHA256, hash_init_sha256, hash_update_sha256,
	 hash_finish_sha256},
#endif
#ifdef CONFIG_SHA512
	{"sha512", SHA512_SUM_LEN, sha512_csum_wd, CHUNKSZ_SHA512, hash_init_sha512, hash_update_sha512,
	 hash_finish_sha512},
#endif
};

int hash_lookup_algo(const char *algo_name, struct hash_algo **algop)
{
	for (size_t i = 0; i < sizeof(hash_algo) / sizeof(hash_algo[0]); ++i)
		if (!strcmp(algo_name, hash_algo[i].name)) {
			*algop = &hash_algo[i];
			return 0;
		}
	return -EPROTONOSUPPORT;
}

int hash_progressive_lookup_algo(const char *algo_name, struct hash_algo **algop)
{
	struct hash_algo *algo;

	if (hash_lookup_algo(algo_name, &algo) || !algo->hash_init)
		return -EPROTONOSUPPORT;
	*algop = algo;
	return 0;
}
