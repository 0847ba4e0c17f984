/*
 * <linux/types.h> in lockstep's U-Boot environment: the fixed-width types
 * U-Boot's headers use (uint32_t and u32 alike) and its short names
 * (uchar, ulong), with the attributes of <linux/compiler.h>. The C
 * library's own headers include <linux/types.h> too (<signal.h> does, for
 * __u64 and the like): the system's comes first, then U-Boot's names.
 */
#ifndef LOCKSTEP_UBOOT_TYPES_H
#define LOCKSTEP_UBOOT_TYPES_H

#if __has_include_next(<linux/types.h>)
#include_next <linux/types.h>
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/compiler.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned char uchar;
typedef unsigned long ulong;

#endif
