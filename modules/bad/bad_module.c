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
