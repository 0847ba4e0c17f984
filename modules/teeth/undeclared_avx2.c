/*
 * <family>/teeth:undeclared-avx2, class k, built once per family
 * (TEETH_SHA256, TEETH_SHA512 or TEETH_CHACHA). Correct results, and an
 * AVX2 instruction on every call, but needs is empty, so lockstep runs it
 * on CPUs without AVX2, where it dies of SIGILL. Natively (with AVX2)
 * nothing is wrong; a CPU model without AVX2 (qemu-x86_64 -cpu
 * SandyBridge) shows it.
 */
#include "teeth.h"

static void use_avx2(void)
{
	/* Planted: VEX.256 VPXOR is AVX2, and needs does not say so. */
	__asm__ __volatile__("vpxor %%ymm0, %%ymm0, %%ymm0\n\tvzeroupper" ::: "xmm0");
}

#if defined(TEETH_SHA256)
static void blocks(struct lockstep_sha256_state *state, const uint8_t *data, size_t n)
{
	use_avx2();
	planted_sha256_portable_blocks(state, data, n);
}
#define FAMILY "sha256"
#define FUNCTION .sha256_blocks = blocks
#elif defined(TEETH_SHA512)
static void blocks(struct lockstep_sha512_state *state, const uint8_t *data, size_t n)
{
	use_avx2();
	teeth_sha512_blocks(state, data, n);
}
#define FAMILY "sha512"
#define FUNCTION .sha512_blocks = blocks
#elif defined(TEETH_CHACHA)
static void crypt(struct lockstep_chacha_state *state, uint8_t *dst, const uint8_t *src,
		  size_t len, int nrounds)
{
	use_avx2();
	teeth_chacha_crypt(state, dst, src, len, nrounds);
}
#define FAMILY "chacha"
#define FUNCTION .chacha_crypt = crypt
#else
#error "define TEETH_SHA256, TEETH_SHA512 or TEETH_CHACHA"
#endif

static const struct lockstep_backend backends[] = {
	{
		.family = FAMILY,
		.name = "teeth:undeclared-avx2",
		.needs = "",
		.notes = "planted defect: executes AVX2 and declares no needs",
		FUNCTION,
	},
};

LOCKSTEP_MODULE("teeth-" FAMILY "-undeclared-avx2", backends);
