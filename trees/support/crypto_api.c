/*
 * lockstep's crypto API model (lockstep/crypto_api.h): the registry of
 * shash and skcipher drivers a glue's init fills, with the kernel's checks
 * on each registration (crypto/algapi.c, crypto/shash.c,
 * crypto/skcipher.c), and what it refused.
 */
#include <lockstep/crypto_api.h>

#include <stdio.h>

#define LOCKSTEP_CRYPTO_API_MAX 64

static struct crypto_alg *registered[LOCKSTEP_CRYPTO_API_MAX];
static int count;
static char message[512];

const char *lockstep_crypto_api_kernel = "";

static int refuse(int err, const char *call, const struct crypto_alg *base, const char *why)
{
	snprintf(message, sizeof message, "%s: %s %s (%s)", call,
		 base->cra_driver_name[0] ? base->cra_driver_name : "a driver with no cra_driver_name", why,
		 err == -EEXIST ? "-EEXIST" : "-EINVAL");
	return err;
}

int lockstep_crypto_api_not_loaded(const char *why)
{
	snprintf(message, sizeof message, "%s", why);
	return -ENODEV;
}

/* What every type's registration checks (crypto_check_alg() and
 * __crypto_register_alg()), then the driver is the type's. */
static int register_alg(const char *call, struct crypto_alg *base, u32 type)
{
	if (!base->cra_name[0] || !base->cra_driver_name[0])
		return refuse(-EINVAL, call, base, "has no cra_name or no cra_driver_name");
	if (base->cra_blocksize == 0 || base->cra_blocksize > PAGE_SIZE / 8)
		return refuse(-EINVAL, call, base, "has a cra_blocksize of 0 or above PAGE_SIZE / 8");
	for (int i = 0; i < count; ++i) {
		const struct crypto_alg *q = registered[i];

		if (q == base)
			return refuse(-EEXIST, call, base, "is registered already (the same algorithm twice)");
		if (!strcmp(q->cra_driver_name, base->cra_driver_name) || !strcmp(q->cra_driver_name, base->cra_name) ||
		    !strcmp(q->cra_name, base->cra_driver_name))
			return refuse(-EEXIST, call, base, "has the name of a registered driver");
	}
	if (count == LOCKSTEP_CRYPTO_API_MAX)
		return refuse(-EINVAL, call, base, "is one more than lockstep's model holds");
	/* The process's crypto API holds every module's drivers, as the
	 * kernel's does (lockstep/kernel_host.h, version 3). */
	if (lockstep_kernel_host_v1 && lockstep_kernel_host_v1->version >= 3 &&
	    lockstep_kernel_host_v1->crypto_register(lockstep_crypto_api_kernel,
						     type == CRYPTO_ALG_TYPE_SHASH ? "shash" : "skcipher", base->cra_name,
						     base->cra_driver_name, base->cra_priority))
		return refuse(-EEXIST, call, base, "has the name of a driver another module registered");
	base->cra_flags = (base->cra_flags & ~(u32)CRYPTO_ALG_TYPE_MASK) | type;
	registered[count++] = base;
	return 0;
}

static void unregister_alg(const char *call, struct crypto_alg *base)
{
	for (int i = 0; i < count; ++i)
		if (registered[i] == base) {
			if (lockstep_kernel_host_v1 && lockstep_kernel_host_v1->version >= 3)
				lockstep_kernel_host_v1->crypto_unregister(lockstep_crypto_api_kernel, base->cra_driver_name);
			memmove(&registered[i], &registered[i + 1], (size_t)(count - i - 1) * sizeof registered[0]);
			--count;
			return;
		}
	snprintf(message, sizeof message, "%s: %s was not registered", call, base->cra_driver_name);
}

int crypto_register_shash(struct shash_alg *alg)
{
	const char *call = "crypto_register_shash";

	if (alg->digestsize == 0 || alg->digestsize > HASH_MAX_DIGESTSIZE)
		return refuse(-EINVAL, call, &alg->base, "has a digestsize of 0 or above HASH_MAX_DIGESTSIZE");
	if (alg->descsize > HASH_MAX_DESCSIZE)
		return refuse(-EINVAL, call, &alg->base, "has a descsize above HASH_MAX_DESCSIZE");
	if (alg->statesize > HASH_MAX_STATESIZE)
		return refuse(-EINVAL, call, &alg->base, "has a statesize above HASH_MAX_STATESIZE");
	/* The kernel calls these without a check: a null one is an oops at
	 * the first use, refused here instead, by name. */
	if (!alg->init || !alg->update || !alg->final)
		return refuse(-EINVAL, call, &alg->base, "has no init, update or final");
	const int err = register_alg(call, &alg->base, CRYPTO_ALG_TYPE_SHASH);
	/* As crypto/shash.c: no statesize means the descriptor is the state. */
	if (!err && !alg->statesize)
		alg->statesize = alg->descsize;
	return err;
}

void crypto_unregister_shash(struct shash_alg *alg) { unregister_alg("crypto_unregister_shash", &alg->base); }

int crypto_register_skcipher(struct skcipher_alg *alg)
{
	const char *call = "crypto_register_skcipher";

	if (alg->ivsize > PAGE_SIZE / 8 || alg->chunksize > PAGE_SIZE / 8 || alg->walksize > PAGE_SIZE / 8)
		return refuse(-EINVAL, call, &alg->base, "has an ivsize, chunksize or walksize above PAGE_SIZE / 8");
	if (!alg->setkey || !alg->encrypt || !alg->decrypt)
		return refuse(-EINVAL, call, &alg->base, "has no setkey, encrypt or decrypt");
	const int err = register_alg(call, &alg->base, CRYPTO_ALG_TYPE_SKCIPHER);
	/* As crypto/skcipher.c: the chunk is a block, the walk's stride a
	 * chunk, unless the driver says otherwise. */
	if (!err && !alg->chunksize)
		alg->chunksize = alg->base.cra_blocksize;
	if (!err && !alg->walksize)
		alg->walksize = alg->chunksize;
	return err;
}

void crypto_unregister_skcipher(struct skcipher_alg *alg)
{
	unregister_alg("crypto_unregister_skcipher", &alg->base);
}

/* Several at once: what the call registered goes again where one fails,
 * as the kernel does. */
#define REGISTER_MANY(type, types)                                                                    \
	int crypto_register_##types(struct type##_alg *algs, int n)                          \
	{                                                                                      \
		for (int i = 0; i < n; ++i) {                                                  \
			const int err = crypto_register_##type(&algs[i]);                      \
			if (err) {                                                             \
				while (--i >= 0)                                               \
					crypto_unregister_##type(&algs[i]);                    \
				return err;                                                    \
			}                                                                      \
		}                                                                              \
		return 0;                                                                      \
	}                                                                                      \
	void crypto_unregister_##types(struct type##_alg *algs, int n)                       \
	{                                                                                      \
		for (int i = n - 1; i >= 0; --i)                                               \
			crypto_unregister_##type(&algs[i]);                                    \
	}
REGISTER_MANY(shash, shashes)
REGISTER_MANY(skcipher, skciphers)

int lockstep_crypto_api_count(void) { return count; }

struct crypto_alg *lockstep_crypto_api_alg(int i) { return i >= 0 && i < count ? registered[i] : NULL; }

const char *lockstep_crypto_api_message(void) { return message; }
