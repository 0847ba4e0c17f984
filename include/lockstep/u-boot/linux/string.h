/*
 * <linux/string.h> in lockstep's U-Boot environment: U-Boot's own string
 * functions, which in user space are the C library's.
 */
#ifndef LOCKSTEP_UBOOT_STRING_H
#define LOCKSTEP_UBOOT_STRING_H
#include <string.h>
#endif
