/*
 * <cyclic.h> in lockstep's U-Boot environment: schedule(), which the
 * front ends call between chunks since WATCHDOG_RESET() gave way to it
 * (<watchdog.h> here).
 */
#ifndef LOCKSTEP_UBOOT_CYCLIC_H
#define LOCKSTEP_UBOOT_CYCLIC_H
#include <watchdog.h>
#endif
