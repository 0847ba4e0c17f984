/*
 * Enough of the kernel's headers for a lib/crypto assembly file or its C
 * glue to build unchanged in user space, as a lockstep module. Give it to
 * the compiler ahead of the file (-include lockstep/kernel_compat.h), and
 * leave out the file's own #include <linux/...> and <asm/...> lines where
 * the compiler cannot find them (an empty directory of stub headers on -I
 * does the same).
 *
 * Each macro does in user space what lockstep needs the kernel's to do:
 * linkage and symbol types in assembly, the fixed-width types and
 * attributes in C, and nothing for what only a kernel needs (FPU ownership,
 * exports, module metadata). A kernel's static_call of its selected
 * implementation becomes a plain pointer the module sets itself.
 */
#ifndef LOCKSTEP_KERNEL_COMPAT_H
#define LOCKSTEP_KERNEL_COMPAT_H

#ifdef __ASSEMBLER__

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

/* The return and the control-flow-integrity marks: user space needs none
 * of the kernel's mitigations around them. */
#define RET ret
#define ENDBR
#define ANNOTATE_NOENDBR
#define FRAME_BEGIN
#define FRAME_END

#else /* C */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
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

/* Module and export metadata: nothing to record in user space. */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_LICENSE(text)
#define MODULE_DESCRIPTION(text)

/* lockstep runs the module's code in a plain thread, whose vector state is
 * its own: there is no FPU or NEON ownership to take. */
static inline void kernel_fpu_begin(void) {}
static inline void kernel_fpu_end(void) {}
static inline void kernel_neon_begin(void) {}
static inline void kernel_neon_end(void) {}
static inline bool may_use_simd(void) { return true; }
static inline bool crypto_simd_usable(void) { return true; }

/* static_call: a pointer, set by the module where the kernel would patch. */
#define DEFINE_STATIC_CALL(name, func) static __typeof__(func) *lockstep_static_call_##name = func
#define static_call(name) (*lockstep_static_call_##name)
#define static_call_update(name, func) (lockstep_static_call_##name = (func))

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

#endif /* __ASSEMBLER__ */
#endif /* LOCKSTEP_KERNEL_COMPAT_H */
