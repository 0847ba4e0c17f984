/*
 * Modules that are wrong in exactly one way each, for the loader's test
 * (bad_modules_test.sh): LOCKSTEP_BAD_CASE picks the way. Each would be a
 * correct one-backend module otherwise.
 */
#include <lockstep/module.h>

__attribute__((unused))
static void blocks(struct lockstep_sha256_state *state, const uint8_t *data,
		   size_t nblocks)
{
	(void)state;
	(void)data;
	(void)nblocks;
}

__attribute__((unused))
static int driver_init(const struct lockstep_hash_driver *d, void *desc)
{
	(void)d;
	(void)desc;
	return 0;
}

/* A whole-message driver with every function but update (case 10), or
 * every one (case 9, which lacks the algorithm it is for). */
__attribute__((unused))
static const struct lockstep_hash_driver driver = {
	.desc_size = 64, .state_size = 40, .digest_size = 32,
	.init = driver_init,
#if LOCKSTEP_BAD_CASE != 10
	.update = (void *)driver_init,
#endif
	.final = (void *)driver_init, .finup = (void *)driver_init,
	.digest = (void *)driver_init, .export_state = (void *)driver_init,
	.import_state = (void *)driver_init,
};

__attribute__((unused))
static int xcrypt(const struct lockstep_cipher_driver *d, const uint8_t key[32], const uint8_t *iv,
		  uint8_t *dst, const uint8_t *src, size_t len)
{
	(void)d; (void)key; (void)iv; (void)dst; (void)src; (void)len;
	return 0;
}

/* An XChaCha driver of 8 rounds, which no kernel driver has (case 12). */
__attribute__((unused))
static const struct lockstep_cipher_driver xdriver = {
	.nrounds = 8, .iv_size = 32, .crypt = xcrypt,
};

/* A MAC driver without its one-call mac (case 13). */
__attribute__((unused))
static const struct lockstep_mac_driver mdriver = {
	.key_size = 64, .desc_size = 112, .mac_size = 32,
	.preparekey = (void *)driver_init, .init = (void *)driver_init,
	.init_usingrawkey = (void *)driver_init, .update = (void *)driver_init,
	.final = (void *)driver_init, .mac_usingrawkey = (void *)driver_init,
};

#define BACKEND(family_, name_, needs_, fn_)                          \
	{ .family = family_, .name = name_, .needs = needs_,          \
	  .notes = "a loader test", .sha256_blocks = fn_ }

static const struct lockstep_backend backends[] = {
#if LOCKSTEP_BAD_CASE == 2
	BACKEND("md5", "bad:unknown-family", "", blocks),
#elif LOCKSTEP_BAD_CASE == 3
	BACKEND("sha256", "bad:unknown-feature", "avx2 avx1024", blocks),
#elif LOCKSTEP_BAD_CASE == 4
	BACKEND("sha256", "bad:twice", "", blocks),
	BACKEND("sha256", "bad:twice", "", blocks),
#elif LOCKSTEP_BAD_CASE == 5
	BACKEND("sha256", "bad:null-blocks", "", 0),
#elif LOCKSTEP_BAD_CASE == 7
	{ .family = "sha256", .name = "bad:overlap", .notes = "a loader test",
	  .sha256_blocks = blocks, .chacha_overlap = 3 },
#elif LOCKSTEP_BAD_CASE == 8
	{ .family = "sha256", .name = "bad:algorithm", .notes = "a loader test",
	  .sha256_blocks = blocks, .algorithms = "sha224 sha384" },
#elif LOCKSTEP_BAD_CASE == 9
	{ .family = "sha256", .name = "bad:driver-for-all", .notes = "a loader test",
	  .sha256_blocks = blocks, .hash_driver = &driver },
#elif LOCKSTEP_BAD_CASE == 10
	{ .family = "sha256", .name = "bad:driver-null", .notes = "a loader test",
	  .sha256_blocks = blocks, .algorithms = "sha256", .hash_driver = &driver },
#elif LOCKSTEP_BAD_CASE == 11
	{ .family = "sha256", .name = "bad:same-code", .notes = "a loader test",
	  .sha256_blocks = blocks, .algorithms = "sha224", .hash_driver = &driver,
	  .same_code_as = "bad:nowhere" },
#elif LOCKSTEP_BAD_CASE == 12
	{ .family = "chacha", .name = "bad:cipher-driver", .notes = "a loader test",
	  .algorithms = "xchacha20", .cipher_driver = &xdriver },
#elif LOCKSTEP_BAD_CASE == 13
	{ .family = "sha256", .name = "bad:mac-driver", .notes = "a loader test",
	  .sha256_blocks = blocks, .algorithms = "sha256", .mac_driver = &mdriver },
#else
	BACKEND("sha256", "bad:abi-version", "", blocks),
#endif
};

static const struct lockstep_module module = {
#if LOCKSTEP_BAD_CASE == 1
	.abi_version = 99,
#else
	.abi_version = LOCKSTEP_MODULE_ABI_VERSION,
#endif
	.name = "bad",
	.backends = backends,
	.backend_count = sizeof(backends) / sizeof(backends[0]),
};

#if LOCKSTEP_BAD_CASE != 6
__attribute__((visibility("default")))
const struct lockstep_module *lockstep_module_v1(void)
{
	return &module;
}
#else
/* Case 6 exports its table under another name: no entry function. */
__attribute__((visibility("default")))
const struct lockstep_module *lockstep_module_v0(void)
{
	return &module;
}
#endif
