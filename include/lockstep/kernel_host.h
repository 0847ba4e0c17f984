/*
 * What kernel code in a module asks of the lockstep program that loaded it.
 *
 * The kernel's glue asks the running kernel questions: which CPU features
 * the boot CPU has, whether SIMD may be used in this context, and it opens
 * and closes the sections in which it may (kernel_fpu_begin/end,
 * kernel_neon_begin/end). In a module built with lockstep/kernel_compat.h
 * these go to the table below, which the loader hands the module right
 * after dlopen(), so that they answer from the environment the check runs
 * in (the CPU model, the emulator, LOCKSTEP_CPU) and the sections behave as
 * the kernel's do: vector state saved at the start, restored at the end,
 * nesting and imbalance refused with the call named. (lockstep_bench
 * saves and restores as the kernel itself does, once per simulated entry
 * into the kernel: host/kernel_host.h's FpuModel.)
 *
 * A module only has to define the pointer (kernel_compat.h does, weakly);
 * lockstep finds it by name. Modules without it never see this table.
 */
#ifndef LOCKSTEP_KERNEL_HOST_H
#define LOCKSTEP_KERNEL_HOST_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOCKSTEP_KERNEL_HOST_VERSION 3

struct lockstep_kernel_host {
	unsigned version; /* LOCKSTEP_KERNEL_HOST_VERSION */
	/* Whether the environment's CPU has the feature, by lockstep's name
	 * ("avx2", "bmi2", "sha_ni", "prefer_ymm", "sha2", "sha512", "asimd").
	 * A name lockstep does not know stops the program (exit 2, named). */
	bool (*cpu_has)(const char *feature);
	/* irq_fpu_usable(), may_use_simd(), crypto_simd_usable(): true unless
	 * the environment runs the glue with SIMD unusable
	 * (LOCKSTEP_KERNEL_SIMD, lockstep's README). */
	bool (*simd_usable)(void);
	/* kernel_fpu_begin()/kernel_neon_begin() and their ends: `call` names
	 * the function for messages ("kernel_fpu_begin"). */
	void (*simd_begin)(const char *call);
	void (*simd_end)(const char *call);
	/* What the glue selected as it initialised: "static_call
	 * sha256_blocks_x86 = sha256_blocks_ni", "static key have_sha_ni on". */
	void (*selected)(const char *what);
	/* Since version 2. boot_cpu_data's identity of the environment's CPU
	 * (what CPUID says there: the host's, or the QEMU model's): the
	 * kernel's X86_VENDOR_* number (Intel 0, AMD 2, Centaur 5, Hygon 9,
	 * Zhaoxin 10; 0xff unknown), the family and the model, extended
	 * fields added as the kernel adds them. Zeros off x86. */
	void (*cpu_identity)(unsigned *vendor, unsigned *family, unsigned *model);
	/* Since version 3. The one crypto API of the process, which every
	 * module's crypto API model (lockstep/crypto_api.h) registers its
	 * drivers with, as every kernel module registers with the kernel's:
	 * a driver name another module holds already is refused (-EEXIST),
	 * and the kernel's selection per algorithm (the registered driver of
	 * highest priority) is reported across all of them. `kernel` names
	 * the kernel the module belongs to ("" for the tree, ".series" for
	 * the tree after a series): each has a crypto API of its own; `type`
	 * is the driver's, "shash" or "skcipher". */
	int (*crypto_register)(const char *kernel, const char *type, const char *cra_name, const char *cra_driver_name,
			       int priority);
	void (*crypto_unregister)(const char *kernel, const char *cra_driver_name);
};

#ifdef __cplusplus
}
#endif

#endif /* LOCKSTEP_KERNEL_HOST_H */
