/*
 * The kernel's headers, enough of them for a lib/crypto assembly file or its
 * C glue to build unchanged in user space, as a lockstep module. Give it to
 * the compiler ahead of the file (-include lockstep/kernel_compat.h), with
 * include/lockstep/kernel on the include path: the <linux/...>, <asm/...>
 * and <crypto/...> headers a glue file includes are there, and each only
 * includes this one.
 *
 * What only a kernel needs (exports, module metadata, the CFI and return
 * thunk marks) does nothing. What the glue asks the running kernel goes to
 * the program that loaded the module (lockstep/kernel_host.h): the boot
 * CPU's features answer from the environment the check runs in, SIMD is
 * usable or not as that environment says, and kernel_fpu_begin()/end() and
 * kernel_neon_begin()/end() save and restore the vector state and refuse
 * nesting and imbalance, as the kernel's do. Static keys and static calls
 * are plain variables, and what the glue's init sets in them is recorded:
 * that is the path the kernel itself selected.
 */
#ifndef LOCKSTEP_KERNEL_COMPAT_H
#define LOCKSTEP_KERNEL_COMPAT_H

#ifdef __ASSEMBLER__

/* The kernel builds its assembly with __KERNEL__ (perlasm output tests it
 * to leave out what only user-space libraries need). */
#ifndef __KERNEL__
#define __KERNEL__ 1
#endif

/* <linux/linkage.h>: a global, typed and sized function symbol. */
#define SYM_FUNC_START(name)                                                   \
	.globl name;                                                           \
	.type name, %function;                                                 \
	.p2align 4;                                                            \
	name:
#define SYM_FUNC_START_LOCAL(name)                                             \
	.type name, %function;                                                 \
	.p2align 4;                                                            \
	name:
#define SYM_TYPED_FUNC_START(name) SYM_FUNC_START(name)
#define SYM_FUNC_END(name) .size name, .-name
/* <linux/linkage.h> before 5.5, and the files that kept it: ENTRY and
 * ENDPROC, END for data, arm64's ENDPIPROC (a position-independent alias). */
#define ENTRY(name)                                                            \
	.globl name;                                                           \
	.p2align 4;                                                            \
	name:
#define ENDPROC(name)                                                          \
	.type name, %function;                                                 \
	.size name, .-name
#define END(name) .size name, .-name
#define ENDPIPROC(name)                                                        \
	.globl __pi_##name;                                                    \
	.type __pi_##name, %function;                                          \
	.set __pi_##name, name;                                                \
	.size __pi_##name, .-__pi_##name;                                      \
	ENDPROC(name)

/* The return and the control-flow-integrity marks: user space needs none
 * of the kernel's mitigations around them. */
#define RET ret
#define ENDBR
#define ANNOTATE_NOENDBR
#define FRAME_BEGIN
#define FRAME_END

#ifdef __aarch64__
/* <asm/cache.h> */
#define L1_CACHE_SHIFT 6
/* <asm/assembler.h>: lockstep runs arm64 little-endian. */
#define CPU_LE(code...) code
#define CPU_BE(code...)
	/* The address of a symbol, PC-relative, +/- 4 GiB. */
	.macro adr_l, dst, sym
	adrp \dst, \sym
	add \dst, \dst, :lo12:\sym
	.endm
	/* A word loaded from a symbol, PC-relative; tmp holds the page where
	 * dst cannot (a w register). */
	.macro ldr_l, dst, sym, tmp=
	.ifb \tmp
	adrp \dst, \sym
	ldr \dst, [\dst, :lo12:\sym]
	.else
	adrp \tmp, \sym
	ldr \dst, [\tmp, :lo12:\sym]
	.endif
	.endm
	/* A kernel's loop yields here when a reschedule is due; a user-space
	 * caller never asks for one. */
	.macro cond_yield, lbl:req, tmp:req, tmp2
	.endm
	/* Up to Linux 6.1 a NEON loop yielded inside the assembly:
	 * if_will_cond_yield_neon, the code that saves what it needs, then
	 * do_cond_yield_neon (kernel_neon_end(), kernel_neon_begin()), the
	 * code that reloads it, endif_yield_neon [lbl]. Here every yield point
	 * yields, a section boundary each time: the vector registers come back
	 * as they were before the section, as after a real preemption they
	 * hold another task's, so code that does not reload what it saved
	 * computes wrong digests. */
	.macro if_will_cond_yield_neon
	.endm
	.macro do_cond_yield_neon
	bl lockstep_kernel_neon_yield
	.endm
	.macro endif_yield_neon, lbl
	.ifnb \lbl
	b \lbl
	.endif
	.endm
	.macro cond_yield_neon, lbl
	if_will_cond_yield_neon
	do_cond_yield_neon
	endif_yield_neon \lbl
	.endm
	/* frame_push regcount, extra: a frame record (x29, x30; x29 = sp),
	 * x19 and the next regcount - 1 callee-saved registers, and extra
	 * bytes (a multiple of 16) of locals at sp + ((regcount + 3) / 2) * 16,
	 * as the kernel lays it out; frame_pop undoes it. Not nestable. */
	.macro lockstep_frame_reg, op, regcount, n, r
	.if \n < (\regcount)
	\op x\r, [sp, #16 + 8 * \n]
	.endif
	.endm
	.macro lockstep_frame_regs, op, regcount
	lockstep_frame_reg \op, \regcount, 0, 19
	lockstep_frame_reg \op, \regcount, 1, 20
	lockstep_frame_reg \op, \regcount, 2, 21
	lockstep_frame_reg \op, \regcount, 3, 22
	lockstep_frame_reg \op, \regcount, 4, 23
	lockstep_frame_reg \op, \regcount, 5, 24
	lockstep_frame_reg \op, \regcount, 6, 25
	lockstep_frame_reg \op, \regcount, 7, 26
	lockstep_frame_reg \op, \regcount, 8, 27
	lockstep_frame_reg \op, \regcount, 9, 28
	.endm
	.macro frame_push, regcount:req, extra=0
	.if (\regcount) < 0 || (\regcount) > 10
	.error "frame_push: regcount must be 0 to 10"
	.endif
	.if ((\extra) % 16) != 0
	.error "frame_push: extra must be a multiple of 16"
	.endif
	.ifdef .Llockstep_frame_regcount
	.if .Llockstep_frame_regcount != -1
	.error "frame_push: nested in another frame_push"
	.endif
	.endif
	.set .Llockstep_frame_regcount, \regcount
	.set .Llockstep_frame_size, (((\regcount) + 3) / 2) * 16 + (\extra)
	stp x29, x30, [sp, #-.Llockstep_frame_size]!
	mov x29, sp
	lockstep_frame_regs str, \regcount
	.endm
	.macro frame_pop
	.ifndef .Llockstep_frame_regcount
	.error "frame_pop without frame_push"
	.endif
	.if .Llockstep_frame_regcount == -1
	.error "frame_pop without frame_push"
	.endif
	lockstep_frame_regs ldr, .Llockstep_frame_regcount
	ldp x29, x30, [sp], #.Llockstep_frame_size
	.set .Llockstep_frame_regcount, -1
	.endm
#endif

#else /* C */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
/* <uapi/linux/types.h> */
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int32_t __s32;
typedef int64_t __s64;
typedef uint32_t __le32;
typedef uint32_t __be32;
typedef uint64_t __le64;
typedef uint64_t __be64;

#ifndef __always_inline /* glibc's <sys/cdefs.h> has the same */
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline __attribute__((noinline))
#define __aligned(x) __attribute__((aligned(x)))
#define __maybe_unused __attribute__((unused))
#define __must_check __attribute__((warn_unused_result))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define asmlinkage
#define __init
#define __exit
#define __ro_after_init
#define __initconst
/* <linux/compiler_attributes.h>: an array parameter of at least n
 * elements ("u8 out[at_least 32]"), which C spells static. */
#define at_least static
#ifndef noinline_for_stack
#define noinline_for_stack noinline
#endif

/* Module and export metadata: nothing to record in user space. */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_LICENSE(text)
#define MODULE_DESCRIPTION(text)
#define MODULE_AUTHOR(text)
#define MODULE_ALIAS(text)
#define MODULE_ALIAS_CRYPTO(name)
#define MODULE_DEVICE_TABLE(type, name)
#define MODULE_IMPORT_NS(ns)
/* <linux/printk.h>: the kernel's log is not lockstep's report; the format
 * and its arguments are still checked. */
#define lockstep_kernel_log(fmt, ...) ((void)(0 && printf(fmt, ##__VA_ARGS__)))
#define pr_info(fmt, ...) lockstep_kernel_log(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) lockstep_kernel_log(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) lockstep_kernel_log(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) lockstep_kernel_log(fmt, ##__VA_ARGS__)
#include <stdio.h>

#include <limits.h>

#include "kernel_host.h"

#define kmsan_unpoison_memory(address, size) ((void)(address), (void)(size))
#ifndef __cplusplus
/* The kernel's static_assert: the message is optional. */
#undef static_assert
#define static_assert(expr, ...) _Static_assert(expr, #expr)
#endif

/* <linux/kconfig.h>: IS_ENABLED(CONFIG_X) is 1 where CONFIG_X is defined
 * as 1 (a tree recipe defines the ones its files test), else 0. */
#define LOCKSTEP_KCONFIG_PLACEHOLDER_1 0,
#define LOCKSTEP_KCONFIG_SECOND(ignored, value, ...) value
#define LOCKSTEP_KCONFIG_IS_SET(option) LOCKSTEP_KCONFIG_IS_SET_(option)
#define LOCKSTEP_KCONFIG_IS_SET_(value) LOCKSTEP_KCONFIG_IS_SET__(LOCKSTEP_KCONFIG_PLACEHOLDER_##value)
#define LOCKSTEP_KCONFIG_IS_SET__(arg_or_junk) LOCKSTEP_KCONFIG_SECOND(arg_or_junk 1, 0, 0)
#define IS_ENABLED(option) LOCKSTEP_KCONFIG_IS_SET(option)
#define IS_BUILTIN(option) LOCKSTEP_KCONFIG_IS_SET(option)
#define IS_REACHABLE(option) LOCKSTEP_KCONFIG_IS_SET(option)

/* <linux/minmax.h>, <linux/math.h>, <linux/align.h>, <linux/sizes.h> */
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define round_up(x, y) ((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y) ((x) & ~((__typeof__(x))((y) - 1)))
#define rounddown(x, y) ((x) - ((x) % (y)))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ALIGN(x, a) (((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define PTR_ALIGN(p, a) ((__typeof__(p))ALIGN((uintptr_t)(p), (a)))
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
/* <linux/string.h>: a clear the compiler may not drop. */
static inline void memzero_explicit(void *s, size_t n)
{
	memset(s, 0, n);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}
/* <asm/byteorder.h>: lockstep runs little-endian. */
#define cpu_to_be32(x) __builtin_bswap32(x)
#define cpu_to_be64(x) __builtin_bswap64(x)
#define be32_to_cpu(x) __builtin_bswap32(x)
#define be64_to_cpu(x) __builtin_bswap64(x)
#define cpu_to_le32(x) ((u32)(x))
#define le32_to_cpu(x) ((u32)(x))
#define BUILD_BUG_ON(cond) ((void)sizeof(char[1 - 2 * !!(cond)]))
#define SZ_1K 0x400
#define SZ_4K 0x1000
#define SZ_64K 0x10000

/* <crypto/sha2.h>, <crypto/chacha.h>: sizes and the state types the glue
 * and its assembly share with lib/crypto. A build of the tree's own front
 * end (lib/crypto/sha256.c and the rest) takes them from the tree's
 * headers, which define them: LOCKSTEP_TREE_CRYPTO_TYPES. */
#ifndef LOCKSTEP_TREE_CRYPTO_TYPES
#define SHA224_DIGEST_SIZE 28
#define SHA256_DIGEST_SIZE 32
#define SHA256_BLOCK_SIZE 64
#define SHA384_DIGEST_SIZE 48
#define SHA512_DIGEST_SIZE 64
#define SHA512_BLOCK_SIZE 128
#define CHACHA_KEY_SIZE 32
#define CHACHA_BLOCK_SIZE 64
#define CHACHA_STATE_WORDS 16
#define HCHACHA_OUT_WORDS 8
struct sha256_block_state {
	u32 h[8];
};
struct sha512_block_state {
	u64 h[8];
};
struct __sha256_ctx {
	struct sha256_block_state state;
	u64 bytecount;
	u8 buf[SHA256_BLOCK_SIZE] __aligned(8);
};
struct chacha_state {
	u32 x[CHACHA_STATE_WORDS];
};
#endif /* LOCKSTEP_TREE_CRYPTO_TYPES */

/* Set by the loader right after dlopen() (lockstep/kernel_host.h); null in
 * a program that does not know it, where the answers below are the safe
 * ones: no feature, SIMD usable, no section bookkeeping. */
__attribute__((weak, visibility("default"))) const struct lockstep_kernel_host
	*lockstep_kernel_host_v1;

/* Set only while lockstep's crypto API model takes the census of what a
 * glue's init can register (lockstep/crypto_api.h), in a child process of
 * its own: every feature answers present. */
__attribute__((weak, visibility("hidden"))) bool lockstep_kernel_all_features;
static inline bool lockstep_kernel_cpu_has(const char *feature)
{
	if (lockstep_kernel_all_features)
		return true;
	return lockstep_kernel_host_v1 && lockstep_kernel_host_v1->cpu_has(feature);
}
/* Set while a simulated interrupt runs kernel code (lockstep's KUnit
 * model, <kunit/run-in-irq-context.h>): 1 hardirq, 2 softirq. SIMD is
 * unusable there. */
__attribute__((weak, visibility("hidden"))) volatile int lockstep_kernel_in_interrupt;
#define in_hardirq() (lockstep_kernel_in_interrupt == 1)
#define in_serving_softirq() (lockstep_kernel_in_interrupt == 2)
#define in_interrupt() (lockstep_kernel_in_interrupt != 0)
#define in_task() (lockstep_kernel_in_interrupt == 0)
static inline bool lockstep_kernel_simd_usable(void)
{
	if (lockstep_kernel_in_interrupt)
		return false;
	return !lockstep_kernel_host_v1 || lockstep_kernel_host_v1->simd_usable();
}
/* Why kernel code that runs only between kernel_fpu_begin() and _end()
 * never runs here, or NULL: the environment makes SIMD unusable on every
 * call (LOCKSTEP_KERNEL_SIMD=unusable, lockstep's README), so each call
 * takes the fallback, which in a tree's one-function module is lockstep's
 * generic code. */
static inline const char *lockstep_kernel_simd_never(void)
{
	const char *mode = getenv("LOCKSTEP_KERNEL_SIMD");

	return mode && !strcmp(mode, "unusable")
		       ? "the tree's code does not run here: SIMD is unusable to kernel code on every call "
			 "(LOCKSTEP_KERNEL_SIMD=unusable), so each call takes lockstep's generic fallback"
		       : NULL;
}
static inline void lockstep_kernel_simd_begin(const char *call)
{
	if (lockstep_kernel_host_v1)
		lockstep_kernel_host_v1->simd_begin(call);
}
static inline void lockstep_kernel_simd_end(const char *call)
{
	if (lockstep_kernel_host_v1)
		lockstep_kernel_host_v1->simd_end(call);
}
static inline void lockstep_kernel_selected(const char *what)
{
	if (lockstep_kernel_host_v1)
		lockstep_kernel_host_v1->selected(what);
}

/* <asm/cpufeature.h>: the boot CPU is the environment's CPU model. Each
 * X86_FEATURE_* is lockstep's name for it; a feature lockstep does not
 * model is not defined, so a glue that tests one fails to build, naming it,
 * instead of running with a guessed answer. */
#define X86_FEATURE_XMM2 "sse2"
#define X86_FEATURE_SSSE3 "ssse3"
#define X86_FEATURE_XMM4_1 "sse4_1"
#define X86_FEATURE_AVX "avx"
#define X86_FEATURE_AVX2 "avx2"
#define X86_FEATURE_BMI2 "bmi2"
#define X86_FEATURE_SHA_NI "sha_ni"
#define X86_FEATURE_AVX512F "avx512f"
#define X86_FEATURE_AVX512VL "avx512vl"
#define X86_FEATURE_AVX512BW "avx512bw"
#define X86_FEATURE_AVX512VBMI "avx512vbmi"
#define X86_FEATURE_SHA512 "sha512"
#define X86_FEATURE_PHE "phe"
#define X86_FEATURE_PHE_EN "phe"
#define X86_FEATURE_PREFER_YMM "prefer_ymm"
#define boot_cpu_has(feature) lockstep_kernel_cpu_has(feature)
/* <asm/cpu_device_id.h>: a module's CPU match table by feature, as the
 * glue files of 5.11 on check it in their init (x86_match_cpu()). */
struct x86_cpu_id {
	const char *feature; /* lockstep's name; NULL ends the table */
	unsigned long driver_data;
};
#define X86_MATCH_FEATURE(feature, data) {(feature), (unsigned long)(data)}
static inline const struct x86_cpu_id *x86_match_cpu(const struct x86_cpu_id *match)
{
	for (; match->feature; ++match)
		if (lockstep_kernel_cpu_has(match->feature))
			return match;
	return NULL;
}
#define cpu_feature_enabled(feature) lockstep_kernel_cpu_has(feature)
#define static_cpu_has(feature) lockstep_kernel_cpu_has(feature)

/* <asm/fpu/xcr.h>: the OS saves a register set where lockstep's feature
 * that needs it is present (lockstep reads XCR0 for each). */
#define XFEATURE_MASK_FP (1u << 0)
#define XFEATURE_MASK_SSE (1u << 1)
#define XFEATURE_MASK_YMM (1u << 2)
#define XFEATURE_MASK_OPMASK (1u << 5)
#define XFEATURE_MASK_ZMM_Hi256 (1u << 6)
#define XFEATURE_MASK_Hi16_ZMM (1u << 7)
#define XFEATURE_MASK_AVX512 \
	(XFEATURE_MASK_OPMASK | XFEATURE_MASK_ZMM_Hi256 | XFEATURE_MASK_Hi16_ZMM)
static inline int cpu_has_xfeatures(u64 mask, const char **feature_name)
{
	const u64 known = XFEATURE_MASK_FP | XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
			  XFEATURE_MASK_AVX512;
	int ok = (mask & ~known) == 0;
	if (ok && (mask & (XFEATURE_MASK_FP | XFEATURE_MASK_SSE)))
		ok = lockstep_kernel_cpu_has("sse2");
	if (ok && (mask & XFEATURE_MASK_YMM))
		ok = lockstep_kernel_cpu_has("avx");
	if (ok && (mask & XFEATURE_MASK_AVX512))
		ok = lockstep_kernel_cpu_has("avx512f");
	if (!ok && feature_name)
		*feature_name = "an extended register set";
	return ok;
}

/* <asm/processor.h> on x86: boot_cpu_data, the boot CPU's identity as
 * CPUID gives it in the environment (family, model, vendor). A copy: the
 * glue reads it, never writes it. */
#define X86_VENDOR_INTEL 0
#define X86_VENDOR_AMD 2
#define X86_VENDOR_CENTAUR 5
#define X86_VENDOR_HYGON 9
#define X86_VENDOR_ZHAOXIN 10
#define X86_VENDOR_UNKNOWN 0xff
struct cpuinfo_x86 {
	u8 x86;        /* family */
	u8 x86_vendor; /* X86_VENDOR_* */
	u8 x86_model;
};
static inline struct cpuinfo_x86 lockstep_kernel_boot_cpu_data(void)
{
	unsigned vendor = X86_VENDOR_UNKNOWN, family = 0, model = 0;

	if (lockstep_kernel_host_v1 && lockstep_kernel_host_v1->version >= 2)
		lockstep_kernel_host_v1->cpu_identity(&vendor, &family, &model);
	return (struct cpuinfo_x86){(u8)family, (u8)vendor, (u8)model};
}
#define boot_cpu_data (lockstep_kernel_boot_cpu_data())

/* <asm/cpufeature.h> on arm64: cpu_have_named_feature(SHA2). */
#define LOCKSTEP_KERNEL_HWCAP_ASIMD "asimd"
#define LOCKSTEP_KERNEL_HWCAP_SHA2 "sha2"
#define LOCKSTEP_KERNEL_HWCAP_SHA512 "sha512"
#define cpu_have_named_feature(name) lockstep_kernel_cpu_has(LOCKSTEP_KERNEL_HWCAP_##name)

/* <asm/fpu/api.h>, <asm/neon.h>, <asm/simd.h>, <crypto/internal/simd.h>:
 * sections in which kernel code may use vector registers. */
static inline bool irq_fpu_usable(void) { return lockstep_kernel_simd_usable(); }
static inline bool may_use_simd(void) { return lockstep_kernel_simd_usable(); }
static inline bool crypto_simd_usable(void) { return lockstep_kernel_simd_usable(); }
static inline void kernel_fpu_begin(void) { lockstep_kernel_simd_begin("kernel_fpu_begin"); }
static inline void kernel_fpu_end(void) { lockstep_kernel_simd_end("kernel_fpu_end"); }
static inline void kernel_neon_begin(void) { lockstep_kernel_simd_begin("kernel_neon_begin"); }
/* do_cond_yield_neon's call (the assembler part above): the section ends
 * and opens again. Weak: every file of a module may define it. */
__attribute__((weak, visibility("hidden"))) void lockstep_kernel_neon_yield(void)
{
	lockstep_kernel_simd_end("kernel_neon_end (do_cond_yield_neon)");
	lockstep_kernel_simd_begin("kernel_neon_begin (do_cond_yield_neon)");
}
static inline void kernel_neon_end(void) { lockstep_kernel_simd_end("kernel_neon_end"); }
/* <asm/simd.h> on arm64 since 6.19: scoped_ksimd() { ... } runs its block
 * in a kernel_neon_begin()/end() section; the end runs however the block
 * is left (break, return), as the kernel's cleanup guard makes it. */
struct lockstep_ksimd_scope {
	bool done;
};
static inline void lockstep_ksimd_scope_end(struct lockstep_ksimd_scope *scope)
{
	(void)scope;
	lockstep_kernel_simd_end("kernel_neon_end (scoped_ksimd)");
}
static inline struct lockstep_ksimd_scope lockstep_ksimd_scope_begin(void)
{
	lockstep_kernel_simd_begin("kernel_neon_begin (scoped_ksimd)");
	return (struct lockstep_ksimd_scope){false};
}
#define scoped_ksimd()                                                         \
	for (struct lockstep_ksimd_scope lockstep_ksimd_                       \
	     __attribute__((cleanup(lockstep_ksimd_scope_end))) =              \
		     lockstep_ksimd_scope_begin();                             \
	     !lockstep_ksimd_.done; lockstep_ksimd_.done = true)

/* <linux/jump_label.h>: a static key is a flag; turning one on is
 * recorded. */
struct static_key_false {
	bool enabled;
};
struct static_key_true {
	bool enabled;
};
#define DEFINE_STATIC_KEY_FALSE(key) struct static_key_false key = {false}
#define DEFINE_STATIC_KEY_TRUE(key) struct static_key_true key = {true}
#define static_branch_likely(key) ((key)->enabled)
#define static_branch_unlikely(key) ((key)->enabled)
#define static_key_enabled(key) ((key)->enabled)
#define static_branch_enable(key) \
	((void)((key)->enabled = true), lockstep_kernel_selected("static key " #key " on"))
#define static_branch_disable(key) \
	((void)((key)->enabled = false), lockstep_kernel_selected("static key " #key " off"))

/* <linux/static_call.h>: a pointer, which the glue's init sets where the
 * kernel would patch the call sites; each update is recorded. */
#define DEFINE_STATIC_CALL(name, func) static __typeof__(func) *lockstep_static_call_##name = func
#define static_call(name) (*lockstep_static_call_##name)
#define static_call_update(name, func)           \
	((void)(lockstep_static_call_##name = (func)), \
	 lockstep_kernel_selected("static_call " #name " = " #func))

/* <linux/unaligned.h> */
static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;
	memcpy(&v, p, sizeof v);
	return __builtin_bswap32(v);
}
static inline u64 get_unaligned_be64(const void *p)
{
	u64 v;
	memcpy(&v, p, sizeof v);
	return __builtin_bswap64(v);
}
static inline void put_unaligned_be32(u32 v, void *p)
{
	v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof v);
}
static inline void put_unaligned_be64(u64 v, void *p)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof v);
}
static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;
	memcpy(&v, p, sizeof v);
	return v;
}
static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, sizeof v);
}
/* The typed forms: a value of *p's type, at any address. */
#define get_unaligned(p)                                                       \
	({                                                                     \
		__typeof__(*(p)) v_;                                           \
		memcpy(&v_, (p), sizeof v_);                                   \
		v_;                                                            \
	})
#define put_unaligned(v, p)                                                    \
	do {                                                                   \
		__typeof__(*(p)) v_ = (v);                                     \
		memcpy((p), &v_, sizeof v_);                                   \
	} while (0)

#endif /* __ASSEMBLER__ */
#endif /* LOCKSTEP_KERNEL_COMPAT_H */
