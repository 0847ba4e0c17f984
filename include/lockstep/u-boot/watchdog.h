/*
 * <watchdog.h> in lockstep's U-Boot environment. A front end built with
 * CONFIG_WATCHDOG (or CONFIG_HW_WATCHDOG) hashes a long buffer in chunks
 * (sha256_csum_wd's chunk_sz, CHUNKSZ_SHA256) and resets the watchdog
 * between them: WATCHDOG_RESET() in older trees, schedule() since 2022.
 * Both count here (trees/support/u-boot_watchdog.c), so a run can tell
 * that the chunked path ran.
 */
#ifndef LOCKSTEP_UBOOT_WATCHDOG_H
#define LOCKSTEP_UBOOT_WATCHDOG_H

void lockstep_uboot_watchdog_reset(void);
void schedule(void);
#define WATCHDOG_RESET() lockstep_uboot_watchdog_reset()

#endif
