/*
 * <kunit/run-in-irq-context.h> in lockstep's kernel environment:
 * kunit_run_irq_test() calls func over and over in task context while a
 * timer interrupts it and calls func again, as a hard interrupt and then as
 * the softirq that follows it. Here the interrupt is a SIGALRM of a
 * repeating timer, which lands anywhere in the task's call, the glue's SIMD
 * sections included. In it SIMD is unusable to kernel code (may_use_simd()
 * is false in hardirq on arm64, and on x86 wherever the interrupted code
 * holds the FPU; lockstep takes the stricter rule), so the glue's fallback
 * runs interleaved with its SIMD path, and both must agree.
 */
#ifndef LOCKSTEP_KUNIT_RUN_IN_IRQ_CONTEXT_H
#define LOCKSTEP_KUNIT_RUN_IN_IRQ_CONTEXT_H

#include <kunit/test.h>

/* The runtime's (trees/support/kunit.c): the counts of calls per context,
 * task, hardirq and softirq, and whether each context saw a failure. */
struct lockstep_kunit_irq_counts {
	int calls[3];
	bool failed[3];
};
void lockstep_kunit_run_irq(bool (*func)(void *), int max_iterations, void *state,
			    struct lockstep_kunit_irq_counts *counts);

static inline void kunit_run_irq_test(struct kunit *test, bool (*func)(void *), int max_iterations,
				      void *test_specific_state)
{
	struct lockstep_kunit_irq_counts c;

	lockstep_kunit_run_irq(func, max_iterations, test_specific_state, &c);
	KUNIT_EXPECT_GT_MSG(test, c.calls[1], 0, "Timer function was not called");
	KUNIT_EXPECT_GT_MSG(test, c.calls[2], 0, "BH work function was not called");
	KUNIT_EXPECT_FALSE_MSG(test, c.failed[0], "Failure reported from task context");
	KUNIT_EXPECT_FALSE_MSG(test, c.failed[1], "Failure reported from hardirq context");
	KUNIT_EXPECT_FALSE_MSG(test, c.failed[2], "Failure reported from softirq context");
}

#endif /* LOCKSTEP_KUNIT_RUN_IN_IRQ_CONTEXT_H */
