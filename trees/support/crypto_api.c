/*
 * lockstep's crypto API model (lockstep/crypto_api.h): the registry of
 * shash drivers a glue's init fills, with the kernel's checks on each
 * registration (crypto/algapi.c, crypto/shash.c), and what it refused.
 */
#include <lockstep/crypto_api.h>

#include <stdio.h>

#define LOCKSTEP_CRYPTO_API_MAX 64

static struct shash_alg *registered[LOCKSTEP_CRYPTO_API_MAX];
static int count;
static char message[512];

const char *lockstep_crypto_api_kernel = "";

static int refuse(int err, const char *call, const struct shash_alg *alg, const char *why)
{
	snprintf(message, sizeof message, "%s: %s %s (%s)", call,
		 alg->base.cra_driver_name[0] ? alg->base.cra_driver_name : "a driver with no cra_driver_name", why,
		 err == -EEXIST ? "-EEXIST" : "-EINVAL");
	return err;
}

int lockstep_crypto_api_not_loaded(const char *why)
{
	snprintf(message, sizeof message, "%s", why);
	return -ENODEV;
}

int crypto_register_shash(struct shash_alg *alg)
{
	const char *call = "crypto_register_shash";

	if (!alg->base.cra_name[0] || !alg->base.cra_driver_name[0])
		return refuse(-EINVAL, call, alg, "has no cra_name or no cra_driver_name");
	if (alg->digestsize == 0 || alg->digestsize > HASH_MAX_DIGESTSIZE)
		return refuse(-EINVAL, call, alg, "has a digestsize of 0 or above HASH_MAX_DIGESTSIZE");
	if (alg->descsize > HASH_MAX_DESCSIZE)
		return refuse(-EINVAL, call, alg, "has a descsize above HASH_MAX_DESCSIZE");
	if (alg->statesize > HASH_MAX_STATESIZE)
		return refuse(-EINVAL, call, alg, "has a statesize above HASH_MAX_STATESIZE");
	if (alg->base.cra_blocksize == 0 || alg->base.cra_blocksize > 4096 / 8)
		return refuse(-EINVAL, call, alg, "has a cra_blocksize of 0 or above PAGE_SIZE / 8");
	/* The kernel calls these without a check: a null one is an oops at
	 * the first use, refused here instead, by name. */
	if (!alg->init || !alg->update || !alg->final)
		return refuse(-EINVAL, call, alg, "has no init, update or final");
	for (int i = 0; i < count; ++i) {
		const struct crypto_alg *q = &registered[i]->base;

		if (registered[i] == alg)
			return refuse(-EEXIST, call, alg, "is registered already (the same shash_alg twice)");
		if (!strcmp(q->cra_driver_name, alg->base.cra_driver_name) ||
		    !strcmp(q->cra_driver_name, alg->base.cra_name) ||
		    !strcmp(q->cra_name, alg->base.cra_driver_name))
			return refuse(-EEXIST, call, alg, "has the name of a registered driver");
	}
	if (count == LOCKSTEP_CRYPTO_API_MAX)
		return refuse(-EINVAL, call, alg, "is one more than lockstep's model holds");
	/* The process's crypto API holds every module's drivers, as the
	 * kernel's does (lockstep/kernel_host.h, version 3). */
	if (lockstep_kernel_host_v1 && lockstep_kernel_host_v1->version >= 3 &&
	    lockstep_kernel_host_v1->crypto_register(lockstep_crypto_api_kernel, alg->base.cra_name, alg->base.cra_driver_name,
						     alg->base.cra_priority))
		return refuse(-EEXIST, call, alg, "has the name of a driver another module registered");
	/* As crypto/shash.c: no statesize means the descriptor is the state. */
	if (!alg->statesize)
		alg->statesize = alg->descsize;
	registered[count++] = alg;
	return 0;
}

void crypto_unregister_shash(struct shash_alg *alg)
{
	for (int i = 0; i < count; ++i)
		if (registered[i] == alg) {
			if (lockstep_kernel_host_v1 && lockstep_kernel_host_v1->version >= 3)
				lockstep_kernel_host_v1->crypto_unregister(lockstep_crypto_api_kernel,
									   alg->base.cra_driver_name);
			memmove(&registered[i], &registered[i + 1], (size_t)(count - i - 1) * sizeof registered[0]);
			--count;
			return;
		}
	snprintf(message, sizeof message, "crypto_unregister_shash: %s was not registered",
		 alg->base.cra_driver_name);
}

int crypto_register_shashes(struct shash_alg *algs, int n)
{
	for (int i = 0; i < n; ++i) {
		const int err = crypto_register_shash(&algs[i]);

		if (err) {
			/* As the kernel: what this call registered goes again. */
			while (--i >= 0)
				crypto_unregister_shash(&algs[i]);
			return err;
		}
	}
	return 0;
}

void crypto_unregister_shashes(struct shash_alg *algs, int n)
{
	for (int i = n - 1; i >= 0; --i)
		crypto_unregister_shash(&algs[i]);
}

int lockstep_crypto_api_shash_count(void) { return count; }

struct shash_alg *lockstep_crypto_api_shash(int i) { return i >= 0 && i < count ? registered[i] : NULL; }

const char *lockstep_crypto_api_message(void) { return message; }
