/*
 * <malloc.h> in lockstep's U-Boot environment: U-Boot's heap, which in
 * user space is the C library's (common/hash.c allocates a progressive
 * hash's context with it).
 */
#ifndef LOCKSTEP_UBOOT_MALLOC_H
#define LOCKSTEP_UBOOT_MALLOC_H
#include <stdlib.h>
#endif
