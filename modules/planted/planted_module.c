/*
 * A planted lockstep module: one sha256 backend whose digests are right and
 * whose calling convention is not, to prove lockstep's abi check catches
 * what conformance cannot. Built for the architecture whose wrapper breaks
 * a register there:
 *   x86-64  planted:clobbers-rbx  (clobber_rbx_x86_64.S)
 *   arm64   planted:clobbers-d8   (clobber_d8_aarch64.S)
 */
#include "planted.h"

#if defined(__x86_64__)
#define PLANTED_REGISTER "rbx"
#elif defined(__aarch64__)
#define PLANTED_REGISTER "d8"
#else
#error "the planted modules are for x86-64 and arm64"
#endif

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "planted:clobbers-" PLANTED_REGISTER,
		.needs = NULL,
		.notes = "planted defect: correct digests, but overwrites the "
			 "callee-saved " PLANTED_REGISTER " (the abi check must fail)",
		.sha256_blocks = planted_sha256_blocks,
	},
};

LOCKSTEP_MODULE("planted-clobbers-" PLANTED_REGISTER, backends);
