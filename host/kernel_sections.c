/*
 * kernel_fpu_begin()/end() and kernel_neon_begin()/end() for modules built
 * with lockstep/kernel_compat.h: sections neither nest nor end unopened,
 * and the code inside may use every vector register (arm64's callee-saved
 * d8-d15 included). What happens to the state of the code a section
 * interrupts is one of two models, chosen per thread:
 *
 * strict (the default, and what every check runs): a section saves the
 *   whole vector state when it opens and puts it back when it closes, so
 *   the caller gets its registers, MXCSR and x87 control word back at
 *   each end, and the abi check can judge the code inside by that.
 *
 * lazy (x86-64 only; lockstep_bench selects it): what the x86 kernel does
 *   for a user task (arch/x86/kernel/fpu/core.c). The first
 *   kernel_fpu_begin() of an entry into the kernel saves the user's
 *   registers and sets TIF_NEED_FPU_LOAD; later sections of the same entry
 *   save nothing; kernel_fpu_end() restores nothing; the registers come
 *   back on the return to user space (switch_fpu_return()), which the host
 *   simulates with lockstep_kernel_return_to_user(). The kernel saves with
 *   XSAVES (modified and init optimisations, compacted) and restores with
 *   XRSTORS, both CPL0 only; the nearest user space has is XSAVEOPT (the
 *   same two optimisations, standard format) and XRSTOR, so the model uses
 *   those, XSAVE where the CPU lacks XSAVEOPT, FXSAVE/FXRSTOR without
 *   XSAVE. A kthread (dm-verity's workqueue) saves nothing at all: in this
 *   model, an entry that never returns.
 *   arm64 stays strict: AAPCS64 makes d8-d15 callee-saved, and lockstep's
 *   own compiled code runs between a module's sections (the kernel's is
 *   general-registers-only), so an end that restored nothing could break
 *   it. The arm64 kernel is lazy too (TIF_FOREIGN_FPSTATE); modelling it
 *   would need a restore of d8-d15 at every end.
 *
 * Both models give a section the kernel's control state: the default
 * MXCSR (the strict model also a clean x87 unit, as the 32-bit kernel's
 * KFPU_387 does; the 64-bit kernel leaves the x87 unit alone) and clean
 * upper halves (vzeroupper, not the kernel's doing: it makes upper state
 * in use at the end the section's own, which the dirty-upper count needs).
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
   2.7 KiB with AVX-512, 11 KiB with AMX's tiles), and for arm64's 32 q
   registers. */
#define STATE_BYTES 16384

struct section {
  /* strict: the state of the code the open section interrupted; lazy: the
     user state of the current entry. The lazy model's XSAVEOPT skips what
     has not changed since the XRSTOR from the same address, so nothing but
     those instructions ever writes it. */
  alignas(64) unsigned char saved[STATE_BYTES];
  const char* opened_by;
  bool open;
  bool lazy;        /* the thread's model (the header comment) */
  bool user_saved;  /* lazy: saved[] holds the entry's user state (TIF_NEED_FPU_LOAD) */
  uint64_t completed;
  uint64_t dirty_upper_at_end;
  uint64_t xinuse_at_begin; /* x86: XINUSE once the section has begun */
  uint64_t saves, restores; /* of the caller's state, either model */
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
  bool xsaveopt;  /* CPUID.(0Dh,1):EAX[0] */
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
    struct xsave_info i = {true, false, false, false, 0, 512};
    uint32_t r[4];
    cpuid(1, 0, r);
    if (r[2] & (1u << 27)) {
      i.xsave = true;
      i.mask = xgetbv(0);
      cpuid(0xD, 0, r);
      i.size = r[1];
      cpuid(0xD, 1, r);
      i.xsaveopt = (r[0] & 1u) != 0;
      i.xinuse = (r[0] & (1u << 2)) != 0;
    }
    g_xsave.xsave = i.xsave;
    g_xsave.xsaveopt = i.xsaveopt;
    g_xsave.xinuse = i.xinuse;
    g_xsave.mask = i.mask;
    g_xsave.size = i.size;
    __atomic_store_n(&g_xsave.known, true, __ATOMIC_RELEASE);
  }
  return &g_xsave;
}

/* The caller's state into `area`: with XSAVEOPT where the lazy model asks
   for the kernel's optimised save and the CPU has it. */
static void save(unsigned char* area, bool optimised) {
  const struct xsave_info* i = xsave_info();
  if (i->size > STATE_BYTES)
    refuse("kernel_fpu_begin", "the CPU's XSAVE area is larger than lockstep's", NULL);
  const uint32_t lo = (uint32_t)i->mask, hi = (uint32_t)(i->mask >> 32);
  if (i->xsave && optimised && i->xsaveopt)
    __asm__ volatile("xsaveopt64 (%0)" : : "r"(area), "a"(lo), "d"(hi) : "memory");
  else if (i->xsave)
    __asm__ volatile("xsave64 (%0)" : : "r"(area), "a"(lo), "d"(hi) : "memory");
  else
    __asm__ volatile("fxsave64 (%0)" : : "r"(area) : "memory");
}

/* What every section starts with (the header comment): the default MXCSR
   (round to nearest, exceptions masked), a clean x87 unit if `x87`, clean
   upper halves (AVX state enabled: XCR0 bit 2), and XINUSE noted. */
static void enter_section(bool x87) {
  const struct xsave_info* i = xsave_info();
  const uint32_t mxcsr_default = 0x1f80;
  if (x87) __asm__ volatile("fninit");
  __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr_default));
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

static const bool lazy_modelled = true;

static void describe(const char** save_insn, const char** restore_insn, uint32_t* area, uint64_t* xcr0) {
  const struct xsave_info* i = xsave_info();
  const bool lazy = t_section.lazy;
  *save_insn = !i->xsave ? "FXSAVE" : lazy && i->xsaveopt ? "XSAVEOPT" : "XSAVE";
  *restore_insn = i->xsave ? "XRSTOR" : "FXRSTOR";
  *area = i->size;
  *xcr0 = i->mask;
}
#elif defined(__aarch64__)
static void save(unsigned char* area, bool optimised) {
  (void)optimised;
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
/* FPCR stays the caller's, as in the kernel's sections. */
static void enter_section(bool x87) { (void)x87; }
static const bool lazy_modelled = false;

static void describe(const char** save_insn, const char** restore_insn, uint32_t* area, uint64_t* xcr0) {
  *save_insn = "STP q0-q31, FPCR, FPSR";
  *restore_insn = "LDP q0-q31, FPCR, FPSR";
  *area = 528;
  *xcr0 = 0;
}
#else
static void save(unsigned char* area, bool optimised) {
  (void)area;
  (void)optimised;
}
static void restore(const unsigned char* area) { (void)area; }
static bool upper_state_dirty(void) { return false; }
static void enter_section(bool x87) { (void)x87; }
static const bool lazy_modelled = false;

static void describe(const char** save_insn, const char** restore_insn, uint32_t* area, uint64_t* xcr0) {
  *save_insn = *restore_insn = "none";
  *area = 0;
  *xcr0 = 0;
}
#endif

void lockstep_kernel_section_begin(const char* call) {
  struct section* s = &t_section;
  if (s->open) refuse(call, "a section is already open, opened by ", s->opened_by);
  if (!s->lazy) {
    save(s->saved, false);
    ++s->saves;
  } else if (!s->user_saved) {
    /* The entry's first section: the kernel's save_fpregs_to_fpstate(). */
    save(s->saved, true);
    s->user_saved = true;
    ++s->saves;
  }
  enter_section(!s->lazy);
  s->open = true;
  s->opened_by = call;
}

void lockstep_kernel_section_end(const char* call) {
  struct section* s = &t_section;
  if (!s->open) refuse(call, "no section is open (no begin, or a second end)", NULL);
  if (upper_state_dirty()) ++s->dirty_upper_at_end;
  if (!s->lazy) {
    restore(s->saved);
    ++s->restores;
  }
  s->open = false;
  ++s->completed;
}

void lockstep_kernel_return_to_user(void) {
  struct section* s = &t_section;
  if (s->open)
    refuse("switch_fpu_return", "a section is open at the return to user space, opened by ", s->opened_by);
  if (!s->user_saved) return;
  restore(s->saved);
  s->user_saved = false;
  ++s->restores;
}

bool lockstep_kernel_fpu_lazy(bool lazy) {
  struct section* s = &t_section;
  lazy = lazy && lazy_modelled;
  if (s->lazy == lazy) return lazy;
  if (s->open) refuse("set_thread_fpu_model", "a section is open, opened by ", s->opened_by);
  if (s->user_saved)
    refuse("set_thread_fpu_model", "an entry's user state is still saved (no return to user space)", NULL);
  s->lazy = lazy;
  return lazy;
}

bool lockstep_kernel_fpu_is_lazy(void) { return t_section.lazy; }

void lockstep_kernel_fpu_describe(const char** save_insn, const char** restore_insn, uint32_t* area, uint64_t* xcr0) {
  describe(save_insn, restore_insn, area, xcr0);
}

void lockstep_kernel_section_stats(uint64_t* completed, uint64_t* dirty, bool* open, uint64_t* saves,
                                   uint64_t* restores) {
  *completed = t_section.completed;
  *dirty = t_section.dirty_upper_at_end;
  *open = t_section.open;
  *saves = t_section.saves;
  *restores = t_section.restores;
}
