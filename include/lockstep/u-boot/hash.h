/*
 * <hash.h> in lockstep's U-Boot environment: U-Boot's hash API, as its
 * `hash` command and its image verification call it. hash_lookup_algo()
 * finds an algorithm by its lower-case name; a one-shot hash is
 * algo->hash_func_ws(data, len, output, algo->chunk_size) (the tree's
 * sha256_csum_wd(), which resets the watchdog every chunk_size bytes), a
 * progressive one hash_init(), hash_update() as often as the data comes
 * (is_last set on the last), hash_finish() (which frees the context).
 * The table behind it is lockstep's model of common/hash.c
 * (trees/support/u-boot_hash.c) over the tree's own front end.
 */
#ifndef LOCKSTEP_UBOOT_HASH_H
#define LOCKSTEP_UBOOT_HASH_H

#define HASH_MAX_DIGEST_SIZE 64

struct hash_algo {
	const char *name;      /* "sha256" */
	const int digest_size; /* bytes */
	/* One shot, resetting the watchdog every chunk_size bytes. */
	void (*hash_func_ws)(const unsigned char *input, unsigned int ilen, unsigned char *output,
			     unsigned int chunk_size);
	int chunk_size;
	/* Progressive: a context allocated by init, freed by finish. */
	int (*hash_init)(struct hash_algo *algo, void **ctxp);
	int (*hash_update)(struct hash_algo *algo, void *ctx, const void *buf, unsigned int size, int is_last);
	int (*hash_finish)(struct hash_algo *algo, void *ctx, void *dest_buf, int size);
};

/* 0 and *algop set, or -EPROTONOSUPPORT for a name the table lacks. */
int hash_lookup_algo(const char *algo_name, struct hash_algo **algop);
/* The same, of the algorithms that have hash_init. */
int hash_progressive_lookup_algo(const char *algo_name, struct hash_algo **algop);

#endif
