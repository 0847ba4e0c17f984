/*
 * The watchdog of lockstep's U-Boot environment (<watchdog.h>): a front
 * end's resets between the chunks of a one-shot hash, counted. U-Boot's
 * reset a hardware timer; here the count says that the chunked path ran.
 */
#include <watchdog.h>

unsigned long lockstep_uboot_watchdog_resets;

void lockstep_uboot_watchdog_reset(void)
{
	__atomic_add_fetch(&lockstep_uboot_watchdog_resets, 1, __ATOMIC_RELAXED);
}

void schedule(void)
{
	lockstep_uboot_watchdog_reset();
}
