/*
 * The Linux crypto API as the glue files of the older layout use it
 * (the _glue.c files of arch/x86/crypto and -glue.c of arch/arm64/crypto, Linux 5.4 to
 * 6.16): a module's init registers shash and skcipher algorithms, each a driver
 * (cra_driver_name) of an algorithm (cra_name) with a priority, and a user
 * gets the registered driver of highest priority and drives it through a
 * descriptor. This is lockstep's model of that surface, in user space, with
 * lockstep/kernel_compat.h under it: registration checks what the kernel's
 * checks and refuses what it refuses, with the same errno, and keeps what
 * was registered for the program that loaded the module.
 *
 * The glue's own headers of the tree (include/crypto/sha2.h or sha.h,
 * sha256_base.h, sha512_base.h) are the tree's, not rewritten: `lockstep
 * tree` puts them on the include path after this environment. The
 * registry itself is trees/support/crypto_api.c.
 */
#ifndef LOCKSTEP_CRYPTO_API_H
#define LOCKSTEP_CRYPTO_API_H

#include "kernel_compat.h"

#include <errno.h>

/* <linux/crypto.h> */
#define CRYPTO_MAX_ALG_NAME 128
#define CRYPTO_ALG_TYPE_MASK 0x0000000f
#define CRYPTO_ALG_TYPE_SKCIPHER 0x00000005
#define CRYPTO_ALG_TYPE_SHASH 0x0000000e
#define CRYPTO_ALG_ASYNC 0x00000080
#define CRYPTO_ALG_KERN_DRIVER_ONLY 0x00001000
#define CRYPTO_ALG_INTERNAL 0x00002000
#define CRYPTO_ALG_OPTIONAL_KEY 0x00004000
#define CRYPTO_ALG_ALLOCATES_MEMORY 0x00010000

struct module;
#define THIS_MODULE ((struct module *)0)

struct crypto_tfm;

struct crypto_alg {
	char cra_name[CRYPTO_MAX_ALG_NAME];
	char cra_driver_name[CRYPTO_MAX_ALG_NAME];
	int cra_priority;
	u32 cra_flags;
	unsigned int cra_blocksize;
	unsigned int cra_ctxsize;
	unsigned int cra_alignmask;
	struct module *cra_module;
	int (*cra_init)(struct crypto_tfm *tfm);
	void (*cra_exit)(struct crypto_tfm *tfm);
};

/* <crypto/hash.h>, <crypto/internal/hash.h>: the shash part. */
#define HASH_MAX_DIGESTSIZE 64
#define HASH_MAX_DESCSIZE 360
#define HASH_MAX_STATESIZE 512

struct shash_alg;

struct crypto_shash {
	struct shash_alg *alg;
	unsigned int descsize;
};

struct shash_desc {
	struct crypto_shash *tfm;
	void *__ctx[] __aligned(16);
};

struct shash_alg {
	int (*init)(struct shash_desc *desc);
	int (*update)(struct shash_desc *desc, const u8 *data, unsigned int len);
	int (*final)(struct shash_desc *desc, u8 *out);
	int (*finup)(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
	int (*digest)(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
	int (*export)(struct shash_desc *desc, void *out);
	int (*import)(struct shash_desc *desc, const void *in);
	int (*setkey)(struct crypto_shash *tfm, const u8 *key, unsigned int keylen);
	int (*init_tfm)(struct crypto_shash *tfm);
	void (*exit_tfm)(struct crypto_shash *tfm);
	unsigned int descsize;
	unsigned int digestsize;
	unsigned int statesize;
	struct crypto_alg base;
};

static inline void *shash_desc_ctx(struct shash_desc *desc) { return desc->__ctx; }
static inline struct shash_alg *crypto_shash_alg(struct crypto_shash *tfm) { return tfm->alg; }
static inline unsigned int crypto_shash_digestsize(struct crypto_shash *tfm) { return tfm->alg->digestsize; }
static inline unsigned int crypto_shash_blocksize(struct crypto_shash *tfm) { return tfm->alg->base.cra_blocksize; }
static inline unsigned int crypto_shash_descsize(struct crypto_shash *tfm) { return tfm->descsize; }
static inline unsigned int crypto_shash_statesize(struct crypto_shash *tfm) { return tfm->alg->statesize; }

/* <crypto/skcipher.h>, <crypto/internal/skcipher.h>: the skcipher part.
 * A request's data is one buffer here (a scatterlist of one entry); the
 * walk over it (trees/support/skcipher_walk.c) gives the glue the chunks
 * the kernel's gives for such a buffer: up to the end of a page of the
 * source or the destination, and a bounce buffer of one stride where
 * less than that is left before a page ends. */
#define PAGE_SIZE 4096

struct scatterlist {
	u8 *lockstep_buf;
	unsigned int length;
};

struct skcipher_alg;

struct crypto_skcipher {
	struct skcipher_alg *alg;
	void *ctx;
};

struct skcipher_request {
	unsigned int cryptlen;
	u8 *iv;
	struct scatterlist *src;
	struct scatterlist *dst;
	struct crypto_skcipher *lockstep_tfm;
};

struct skcipher_alg {
	int (*setkey)(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen);
	int (*encrypt)(struct skcipher_request *req);
	int (*decrypt)(struct skcipher_request *req);
	int (*init)(struct crypto_skcipher *tfm);
	void (*exit)(struct crypto_skcipher *tfm);
	unsigned int min_keysize;
	unsigned int max_keysize;
	unsigned int ivsize;
	unsigned int chunksize;
	unsigned int walksize;
	struct crypto_alg base;
};

struct skcipher_walk {
	union {
		struct {
			void *addr;
		} virt;
	} src, dst;
	unsigned int nbytes;
	unsigned int total;
	unsigned int stride;
	unsigned int blocksize;
	u8 *iv;
	/* lockstep's: where the walk is, and its bounce buffer. */
	const u8 *lockstep_in;
	u8 *lockstep_out;
	bool lockstep_slow;
	u8 lockstep_bounce[PAGE_SIZE / 8] __aligned(16);
};

static inline struct crypto_skcipher *crypto_skcipher_reqtfm(struct skcipher_request *req) { return req->lockstep_tfm; }
static inline void *crypto_skcipher_ctx(struct crypto_skcipher *tfm) { return tfm->ctx; }
static inline struct skcipher_alg *crypto_skcipher_alg(struct crypto_skcipher *tfm) { return tfm->alg; }
static inline unsigned int crypto_skcipher_ivsize(struct crypto_skcipher *tfm) { return tfm->alg->ivsize; }
static inline unsigned int crypto_skcipher_chunksize(struct crypto_skcipher *tfm) { return tfm->alg->chunksize; }
static inline unsigned int crypto_skcipher_walksize(struct crypto_skcipher *tfm) { return tfm->alg->walksize; }

/* The kernel's checks and errnos, as for shash. */
int crypto_register_skcipher(struct skcipher_alg *alg);
void crypto_unregister_skcipher(struct skcipher_alg *alg);
int crypto_register_skciphers(struct skcipher_alg *algs, int count);
void crypto_unregister_skciphers(struct skcipher_alg *algs, int count);

/* The walk: the first chunk, then the next after each chunk done with
 * `err` bytes of it left unprocessed (or a negative errno). */
int skcipher_walk_virt(struct skcipher_walk *walk, struct skcipher_request *req, bool atomic);
int skcipher_walk_done(struct skcipher_walk *walk, int err);

/* The kernel's checks, answers and errnos (-EINVAL, -EEXIST). */
int crypto_register_shash(struct shash_alg *alg);
void crypto_unregister_shash(struct shash_alg *alg);
int crypto_register_shashes(struct shash_alg *algs, int count);
void crypto_unregister_shashes(struct shash_alg *algs, int count);

/* The generic drivers' update and finup (crypto/sha256_generic.c,
 * crypto/sha512_generic.c), which a glue calls where it may not use SIMD:
 * the tree's sha256_base.h and sha512_base.h over lockstep's generic
 * block functions (trees/support/crypto_sha2_generic.c). */
int crypto_sha256_update(struct shash_desc *desc, const u8 *data, unsigned int len);
int crypto_sha256_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);
int crypto_sha512_update(struct shash_desc *desc, const u8 *data, unsigned int len);
int crypto_sha512_finup(struct shash_desc *desc, const u8 *data, unsigned int len, u8 *out);

/* <linux/module.h>: the init and exit a module declares, kept in sections
 * of their own as the kernel keeps initcalls, so that the program that
 * loads the module runs every glue file's in link order. */
typedef int (*lockstep_initcall_t)(void);
typedef void (*lockstep_exitcall_t)(void);
#define module_init(fn)                                                        \
	static lockstep_initcall_t lockstep_initcall_##fn                      \
		__attribute__((used, section("lockstep_initcalls"))) = fn
#define module_exit(fn)                                                        \
	static lockstep_exitcall_t lockstep_exitcall_##fn                      \
		__attribute__((used, section("lockstep_exitcalls"))) = fn
/* arm64: the kernel loads such a module only on a CPU with the feature. */
#define module_cpu_feature_match(feature, fn)                                  \
	static int lockstep_feature_init_##fn(void)                            \
	{                                                                      \
		if (!cpu_have_named_feature(feature))                          \
			return lockstep_crypto_api_not_loaded(                 \
				"module_cpu_feature_match(" #feature "): the " \
				"kernel loads the module only on a CPU with " #feature); \
		return fn();                                                   \
	}                                                                      \
	module_init(lockstep_feature_init_##fn)

/* What the model says to the program that loaded the module. */

/* The kernel the module belongs to, for the process's crypto API
 * (lockstep/kernel_host.h): "", or ".series" for a tree after a series. */
extern const char *lockstep_crypto_api_kernel;

/* Why the module is not loaded here; returns -ENODEV. */
int lockstep_crypto_api_not_loaded(const char *why);
/* The registered drivers, shash and skcipher, in registration order;
 * cra_flags & CRYPTO_ALG_TYPE_MASK says which. */
int lockstep_crypto_api_count(void);
struct crypto_alg *lockstep_crypto_api_alg(int i);
/* The last refusal or reason, "" for none: "crypto_register_shash:
 * sha256-avx2 is registered already (-EEXIST)". */
const char *lockstep_crypto_api_message(void);

#endif /* LOCKSTEP_CRYPTO_API_H */
