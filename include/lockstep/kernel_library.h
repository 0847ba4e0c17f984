/*
 * What the kernel's library front ends (lib/crypto/sha256.c, sha512.c,
 * chacha.c) and their KUnit suites use beyond what a glue file does:
 * word helpers, FIPS mode, the overflow checks. The <linux/...> headers of
 * include/lockstep/kernel that they include come here; kernel_compat.h is
 * already in (the compiler's -include).
 */
#ifndef LOCKSTEP_KERNEL_LIBRARY_H
#define LOCKSTEP_KERNEL_LIBRARY_H

#include "kernel_compat.h"

#include <errno.h>

/* <linux/wordpart.h> */
#define REPEAT_BYTE(x) ((~0ul / 0xff) * (x))
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))

/* <linux/bitops.h> */
static inline u32 rol32(u32 word, unsigned int shift) { return (word << (shift & 31)) | (word >> ((-shift) & 31)); }
static inline u32 ror32(u32 word, unsigned int shift) { return (word >> (shift & 31)) | (word << ((-shift) & 31)); }
static inline u64 ror64(u64 word, unsigned int shift) { return (word >> (shift & 63)) | (word << ((-shift) & 63)); }
static inline u64 rol64(u64 word, unsigned int shift) { return (word << (shift & 63)) | (word >> ((-shift) & 63)); }

/* <linux/fips.h>: lockstep models a kernel booted without fips=1. */
#define fips_enabled 0

/* <linux/overflow.h> */
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)

/* Boot: the library's init runs when the module loads, from the
 * initcall section of lockstep/crypto_api.h's module_init(), as the
 * kernel runs a subsys_initcall before its users. A panic ends the
 * process, saying so. */
#include "crypto_api.h"
#define subsys_initcall(fn) module_init(fn)
#define arch_initcall(fn) module_init(fn)
#define panic(fmt, ...) (fprintf(stderr, "kernel panic: " fmt, ##__VA_ARGS__), abort())
#define WARN_ON(cond) ({ bool warned_ = !!(cond); if (warned_) fprintf(stderr, "WARNING at %s:%d\n", __FILE__, __LINE__); warned_; })
#define WARN_ON_ONCE(cond) WARN_ON(cond)

/* <linux/slab.h>, <linux/vmalloc.h>: vmalloc's area ends at a page the
 * process may not touch, as the kernel's guard page (KUnit's hash suites
 * put their buffer against it to catch overreads). */
typedef unsigned int gfp_t;
#define GFP_KERNEL 0u
#ifndef PAGE_SIZE
#define PAGE_SIZE 4096ul
#endif
void *vmalloc(unsigned long size);
void vfree(const void *addr);
#define kmalloc(size, gfp) malloc(size)
#define kzalloc(size, gfp) calloc(1, size)
#define kfree(p) free((void *)(p))

/* <linux/preempt.h>, <linux/timekeeping.h>, <linux/math64.h>: one task,
 * never preempted by the kernel; its clock. */
#define preempt_disable() ((void)0)
#define preempt_enable() ((void)0)
u64 ktime_get_ns(void);
#define div64_u64(a, b) ((u64)(a) / (u64)(b))
#define NSEC_PER_SEC 1000000000ull

/* <linux/atomic.h> */
typedef struct {
	int counter;
} atomic_t;
#define atomic_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_set_release(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELEASE)
#define atomic_inc_return(v) __atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_inc(v) ((void)atomic_inc_return(v))
static inline int atomic_cmpxchg(atomic_t *v, int old, int new_value)
{
	__atomic_compare_exchange_n(&v->counter, &old, new_value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

#endif /* LOCKSTEP_KERNEL_LIBRARY_H */
