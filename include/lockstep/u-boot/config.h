/*
 * <config.h> in lockstep's U-Boot environment. U-Boot's is generated per
 * board; what its armv8 crypto assembly reads of it is the byte order,
 * which lockstep's arm64 is: little-endian.
 */
#ifndef LOCKSTEP_UBOOT_CONFIG_H
#define LOCKSTEP_UBOOT_CONFIG_H
#define __LITTLE_ENDIAN 1234
#define __BIG_ENDIAN 4321
#define __BYTE_ORDER __LITTLE_ENDIAN
#endif
