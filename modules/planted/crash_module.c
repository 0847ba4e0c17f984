/*
 * A planted lockstep module whose one sha256 backend dies: its block
 * function writes through a null pointer. `lockstep run` must fail every
 * cell of this row with the signal and a reproducer, and still decide
 * every other row by its own tests (cli/crash_isolation_test.sh).
 */
#include <lockstep/module.h>

static void crashing_blocks(struct lockstep_sha256_state *state,
			    const uint8_t *data, size_t nblocks)
{
	/* volatile: the compiler must not drop or reorder the faulting store. */
	volatile uint32_t *nowhere = (volatile uint32_t *)(uintptr_t)0;

	(void)data;
	(void)nblocks;
	*nowhere = state->h[0];
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "planted:crashes",
		.notes = "planted defect: every call faults (SIGSEGV)",
		.sha256_blocks = crashing_blocks,
	},
};

LOCKSTEP_MODULE("planted-crashes", backends);
