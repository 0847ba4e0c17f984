/*
 * kernel_fpu_begin()/end() and kernel_neon_begin()/end() for modules built
 * with lockstep/kernel_compat.h: as in the kernel, a section saves the
 * vector state when it opens and puts it back when it closes, so the code
 * inside may use every vector register (arm64's callee-saved d8-d15
 * included), and sections neither nest nor end unopened.
 *
 * This file is compiled with -mgeneral-regs-only (impl/CMakeLists.txt): no
 * code of its own touches a vector register between the glue's call and the
 * save, or between the restore and the return, so the state saved is the
 * caller's and the state restored reaches it unchanged.
 */
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Room for the largest XSAVE area an x86 CPU reports for XCR0 today (about
   2.7 KiB with AVX-512) with margin, and for arm64's 32 q registers. */
#define STATE_BYTES 16384

struct section {
  alignas(64) unsigned char saved[STATE_BYTES];
  const char* opened_by;
  bool open;
  uint64_t completed;
  uint64_t dirty_upper_at_end;
  uint64_t xinuse_at_begin; /* x86: XINUSE once the section has begun */
};
/* Zero-initialised: the XSAVE header's reserved bytes must be 0. */
static _Thread_local struct section t_section;

static _Noreturn void refuse(const char* call, const char* what, const char* other) {
  fprintf(stderr, "lockstep: kernel environment: %s(): %s%s\n", call, what, other ? other : "");
  fflush(stderr);
  abort();
}

#if defined(__x86_64__)
struct xsave_info {
  bool known;
  bool xsave;     /* the OS enabled XSAVE (CPUID.1:ECX.OSXSAVE) */
  bool xinuse;    /* XGETBV with ECX=1 works (CPUID.(0Dh,1):EAX[2]) */
  uint64_t mask;  /* XCR0: the components the OS saves */
  uint32_t size;  /* the XSAVE area for them (FXSAVE's without XSAVE) */
};

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
  __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static uint64_t xgetbv(uint32_t index) {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(index));
  return ((uint64_t)hi << 32) | lo;
}

/* The same on every thread; a race only computes it twice. */
static struct xsave_info g_xsave;

static const struct xsave_info* xsave_info(void) {
  if (!__atomic_load_n(&g_xsave.known, __ATOMIC_ACQUIRE)) {
    struct xsave_info i = {true, false, false, 0, 512};
    uint32_t r[4];
    cpuid(1, 0, r);
    if (r[2] & (1u << 27)) {
      i.xsave = true;
      i.mask = xgetbv(0);
      cpuid(0xD, 0, r);
      i.size = r[1];
      cpuid(0xD, 1, r);
      i.xinuse = (r[0] & (1u << 2)) != 0;
    }
    g_xsave.xsave = i.xsave;
    g_xsave.xinuse = i.xinuse;
    g_xsave.mask = i.mask;
    g_xsave.size = i.size;
    __atomic_store_n(&g_xsave.known, true, __ATOMIC_RELEASE);
  }
  return &g_xsave;
}

static void save(unsigned char* area) {
  const struct xsave_info* i = xsave_info();
  if (i->size > STATE_BYTES)
    refuse("kernel_fpu_begin", "the CPU's XSAVE area is larger than lockstep's", NULL);
  if (i->xsave)
    __asm__ volatile("xsave64 (%0)" : : "r"(area), "a"((uint32_t)i->mask), "d"((uint32_t)(i->mask >> 32)) : "memory");
  else
    __asm__ volatile("fxsave64 (%0)" : : "r"(area) : "memory");
  /* The kernel's kernel_fpu_begin() hands its code a clean x87 unit and the
     default MXCSR (round to nearest, exceptions masked). */
  const uint32_t mxcsr_default = 0x1f80;
  __asm__ volatile("fninit\n\tldmxcsr %0" : : "m"(mxcsr_default));
  /* Clean upper halves to start with, so that upper state in use at the
     end is the section's own doing (AVX state enabled: XCR0 bit 2). */
  if (i->xsave && (i->mask & 4))
    __asm__ volatile("vzeroupper");
  t_section.xinuse_at_begin = i->xinuse ? xgetbv(1) : 0;
}

static void restore(const unsigned char* area) {
  const struct xsave_info* i = xsave_info();
  if (i->xsave)
    __asm__ volatile("xrstor64 (%0)" : : "r"(area), "a"((uint32_t)i->mask), "d"((uint32_t)(i->mask >> 32)) : "memory");
  else
    __asm__ volatile("fxrstor64 (%0)" : : "r"(area) : "memory");
}

/* The upper halves of ymm0-15 or zmm0-15 (XINUSE bits 2 and 6) brought into
   use in the section and still in use: its code did not end with
   vzeroupper. zmm16-31 and the opmasks (bits 7 and 5) are left out:
   vzeroupper does not clear them, and they cost SSE code nothing. */
static bool upper_state_dirty(void) {
  const struct xsave_info* i = xsave_info();
  return i->xinuse && (xgetbv(1) & ~t_section.xinuse_at_begin & 0x44) != 0;
}
#elif defined(__aarch64__)
static void save(unsigned char* area) {
  __asm__ volatile(
      "stp q0, q1, [%0, #0]\n\tstp q2, q3, [%0, #32]\n\tstp q4, q5, [%0, #64]\n\t"
      "stp q6, q7, [%0, #96]\n\tstp q8, q9, [%0, #128]\n\tstp q10, q11, [%0, #160]\n\t"
      "stp q12, q13, [%0, #192]\n\tstp q14, q15, [%0, #224]\n\tstp q16, q17, [%0, #256]\n\t"
      "stp q18, q19, [%0, #288]\n\tstp q20, q21, [%0, #320]\n\tstp q22, q23, [%0, #352]\n\t"
      "stp q24, q25, [%0, #384]\n\tstp q26, q27, [%0, #416]\n\tstp q28, q29, [%0, #448]\n\t"
      "stp q30, q31, [%0, #480]\n\tmrs x9, fpcr\n\tmrs x10, fpsr\n\tadd x11, %0, #512\n\t"
      "stp x9, x10, [x11]"
      :
      : "r"(area)
      : "x9", "x10", "x11", "memory");
}

static void restore(const unsigned char* area) {
  __asm__ volatile(
      "ldp q0, q1, [%0, #0]\n\tldp q2, q3, [%0, #32]\n\tldp q4, q5, [%0, #64]\n\t"
      "ldp q6, q7, [%0, #96]\n\tldp q8, q9, [%0, #128]\n\tldp q10, q11, [%0, #160]\n\t"
      "ldp q12, q13, [%0, #192]\n\tldp q14, q15, [%0, #224]\n\tldp q16, q17, [%0, #256]\n\t"
      "ldp q18, q19, [%0, #288]\n\tldp q20, q21, [%0, #320]\n\tldp q22, q23, [%0, #352]\n\t"
      "ldp q24, q25, [%0, #384]\n\tldp q26, q27, [%0, #416]\n\tldp q28, q29, [%0, #448]\n\t"
      "ldp q30, q31, [%0, #480]\n\tadd x11, %0, #512\n\tldp x9, x10, [x11]\n\t"
      "msr fpcr, x9\n\tmsr fpsr, x10"
      :
      : "r"(area)
      : "x9", "x10", "x11", "memory");
}

static bool upper_state_dirty(void) { return false; }
#else
static void save(unsigned char* area) { (void)area; }
static void restore(const unsigned char* area) { (void)area; }
static bool upper_state_dirty(void) { return false; }
#endif

void lockstep_kernel_section_begin(const char* call) {
  struct section* s = &t_section;
  if (s->open) refuse(call, "a section is already open, opened by ", s->opened_by);
  save(s->saved);
  s->open = true;
  s->opened_by = call;
}

void lockstep_kernel_section_end(const char* call) {
  struct section* s = &t_section;
  if (!s->open) refuse(call, "no section is open (no begin, or a second end)", NULL);
  if (upper_state_dirty()) ++s->dirty_upper_at_end;
  restore(s->saved);
  s->open = false;
  ++s->completed;
}

void lockstep_kernel_section_stats(uint64_t* completed, uint64_t* dirty, bool* open) {
  *completed = t_section.completed;
  *dirty = t_section.dirty_upper_at_end;
  *open = t_section.open;
}
