/*
 * <common.h> in lockstep's U-Boot environment. U-Boot's (removed in 2024)
 * pulled in most of U-Boot; what a crypto front end of that time took
 * from it is the types, the string functions and the attributes.
 */
#ifndef LOCKSTEP_UBOOT_COMMON_H
#define LOCKSTEP_UBOOT_COMMON_H
#include <linux/types.h>
#include <linux/string.h>
#include <stdlib.h>
#endif
