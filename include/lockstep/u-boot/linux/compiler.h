/*
 * <linux/compiler.h> in lockstep's U-Boot environment: the attributes
 * U-Boot's C spells as the kernel does. __weak matters most here: a
 * front end's weak block function (lib/sha256.c's sha256_process) is what
 * an arch glue overrides, and the link decides which one runs.
 */
#ifndef LOCKSTEP_UBOOT_COMPILER_H
#define LOCKSTEP_UBOOT_COMPILER_H

#ifndef __weak
#define __weak __attribute__((weak))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((aligned(x)))
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef noinline
#define noinline __attribute__((noinline))
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#endif
