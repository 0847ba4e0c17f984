/*
 * sha256/teeth:undeclared-bmi2, class l. Correct results, declares avx2,
 * and rotates with BMI2's rorx on every call: the defect seed 002's review
 * is about. Every host and CPU model with AVX2 here has BMI2 too, so only
 * reading the code (the isa column) or a CPU with AVX2 and no BMI2 (qemu
 * Haswell,-bmi2) shows it.
 */
#include "teeth.h"

static uint32_t rotate(uint32_t x)
{
	uint32_t r;
	/* Planted: RORX is BMI2, and needs names avx2 alone. */
	__asm__ __volatile__("rorx $7, %1, %0" : "=r"(r) : "r"(x));
	return r;
}

static void blocks(struct lockstep_sha256_state *state, const uint8_t *data, size_t n)
{
	const uint32_t h0 = state->h[0];

	planted_sha256_portable_blocks(state, data, n);
	/* The rotation undone: the result stays right. */
	if (rotate(h0) == ((h0 >> 7) | (h0 << 25)))
		return;
	state->h[0] ^= 1;
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "teeth:undeclared-bmi2",
		.needs = "avx2",
		.notes = "planted defect: executes BMI2 rorx and declares avx2 only",
		.sha256_blocks = blocks,
	},
};

LOCKSTEP_MODULE("teeth-sha256-undeclared-bmi2", backends);
