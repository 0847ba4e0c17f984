#include "abi/abi_check.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <random>
#include <stdexcept>

#include "abi/trampoline_layout.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace lockstep::abi {
namespace {

// Random register values: splitmix64 over a per-thread state seeded once
// from std::random_device, mixed with a process-wide counter so two threads
// seeded alike still diverge. Cheap, and fresh for every call.
class Values {
 public:
  Values() : state_(seed()) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // n values, no two alike and none zero (a register cleared to zero must
  // never match by chance).
  template <std::size_t N>
  std::array<std::uint64_t, N> distinct() {
    std::array<std::uint64_t, N> out{};
    for (std::size_t i = 0; i < N; ++i) {
      std::uint64_t v;
      do {
        v = next();
      } while (v == 0 || std::find(out.begin(), out.begin() + i, v) != out.begin() + i);
      out[i] = v;
    }
    return out;
  }

 private:
  static std::uint64_t seed() {
    static std::atomic<std::uint64_t> counter{0};
    std::random_device rd;
    const std::uint64_t device = (std::uint64_t{rd()} << 32) ^ rd();
    return device ^ (counter.fetch_add(1) * 0xd1342543de82ef95ull);
  }

  std::uint64_t state_;
};

[[maybe_unused]] Values& values() {
  thread_local Values v;
  return v;
}

std::array<std::uintptr_t, kMaxArgs> padded(std::span<const std::uintptr_t> args) {
  if (args.size() > kMaxArgs) throw std::invalid_argument("abi::call_raw: more than six arguments");
  std::array<std::uintptr_t, kMaxArgs> a{};
  std::copy(args.begin(), args.end(), a.begin());
  return a;
}

#if defined(__x86_64__) && defined(__ELF__)

struct X86State {
  std::uint64_t in_gpr[6];
  std::uint64_t out_gpr[6];
  std::uint64_t rsp_before;
  std::uint64_t rsp_after;
  std::uint64_t rflags_after;
  std::uint64_t xinuse_before;
  std::uint64_t xinuse_after;
  std::uint32_t mxcsr_before;
  std::uint32_t mxcsr_after;
  std::uint16_t fcw_before;
  std::uint16_t fcw_after;
  std::uint32_t flags;
};
static_assert(offsetof(X86State, in_gpr) == X86_IN_GPR);
static_assert(offsetof(X86State, out_gpr) == X86_OUT_GPR);
static_assert(offsetof(X86State, rsp_before) == X86_RSP_BEFORE);
static_assert(offsetof(X86State, rsp_after) == X86_RSP_AFTER);
static_assert(offsetof(X86State, rflags_after) == X86_RFLAGS_AFTER);
static_assert(offsetof(X86State, xinuse_before) == X86_XINUSE_BEFORE);
static_assert(offsetof(X86State, xinuse_after) == X86_XINUSE_AFTER);
static_assert(offsetof(X86State, mxcsr_before) == X86_MXCSR_BEFORE);
static_assert(offsetof(X86State, mxcsr_after) == X86_MXCSR_AFTER);
static_assert(offsetof(X86State, fcw_before) == X86_FCW_BEFORE);
static_assert(offsetof(X86State, fcw_after) == X86_FCW_AFTER);
static_assert(offsetof(X86State, flags) == X86_FLAGS);
static_assert(sizeof(X86State) == X86_SIZE);

extern "C" std::uint64_t lockstep_abi_trampoline(RawFunction fn, X86State* s, std::uint64_t a0,
                                                 std::uint64_t a1, std::uint64_t a2, std::uint64_t a3,
                                                 std::uint64_t a4, std::uint64_t a5);

constexpr const char* kGprNames[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};

constexpr std::uint64_t kDirectionFlag = 1u << 10;
// MXCSR bits 0..5 are exception flags, status the callee may set; the
// rest (DAZ, the masks, rounding, FZ) are control, and callee-saved.
constexpr std::uint32_t kMxcsrControl = ~std::uint32_t{0x3f};
// XINUSE components that mean dirty upper state: 2 the upper halves of
// ymm0..15, 5 the opmasks, 6 the upper halves of zmm0..15, 7 zmm16..31.
constexpr std::uint64_t kUpperVectorState = (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7);

std::uint64_t xgetbv(std::uint32_t index) {
  std::uint32_t lo, hi;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(index));
  return (std::uint64_t{hi} << 32) | lo;
}

// What the trampoline may do on this CPU: X86_FLAG_* bits.
std::uint32_t cpu_flags() {
  static const std::uint32_t flags = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0u;
    const bool osxsave = (c >> 27) & 1;
    const bool avx = (c >> 28) & 1;
    if (!osxsave) return 0u;  // xgetbv and vzeroupper both fault
    std::uint32_t f = 0;
    // vzeroupper needs the OS to manage SSE and AVX state (XCR0 bits 1, 2).
    if (avx && (xgetbv(0) & 6) == 6) f |= X86_FLAG_VZEROUPPER;
    // CPUID.(EAX=0DH,ECX=1):EAX bit 2: XGETBV with ECX=1 is supported.
    // XINUSE is only worth reading where it tracks: right after vzeroupper
    // the AVX state is in its initial configuration, so bit 2 must be
    // clear. QEMU's TCG (7.2) claims the feature but reports the AVX
    // component in use always; there nothing could be told from it.
    if ((f & X86_FLAG_VZEROUPPER) && __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && ((a >> 2) & 1)) {
      std::uint32_t lo, hi;
      asm volatile("vzeroupper\n\txgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
      if (((lo >> 2) & 1) == 0) f |= X86_FLAG_XINUSE;
    }
    return f;
  }();
  return flags;
}

#elif defined(__aarch64__) && defined(__ELF__)

struct A64State {
  std::uint64_t in_x[11];
  std::uint64_t in_d[8];
  std::uint64_t out_x[11];
  std::uint64_t out_d[8];
  std::uint64_t sp_before;
  std::uint64_t sp_after;
};
static_assert(offsetof(A64State, in_x) == A64_IN_X);
static_assert(offsetof(A64State, in_d) == A64_IN_D);
static_assert(offsetof(A64State, out_x) == A64_OUT_X);
static_assert(offsetof(A64State, out_d) == A64_OUT_D);
static_assert(offsetof(A64State, sp_before) == A64_SP_BEFORE);
static_assert(offsetof(A64State, sp_after) == A64_SP_AFTER);
static_assert(sizeof(A64State) == A64_SIZE);

extern "C" std::uint64_t lockstep_abi_trampoline(RawFunction fn, A64State* s, std::uint64_t a0,
                                                 std::uint64_t a1, std::uint64_t a2, std::uint64_t a3,
                                                 std::uint64_t a4, std::uint64_t a5);

constexpr const char* kXNames[11] = {"x19", "x20", "x21", "x22", "x23", "x24",
                                     "x25", "x26", "x27", "x28", "x29"};
constexpr const char* kDNames[8] = {"d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"};

#endif

}  // namespace

std::string Report::to_string() const {
  if (!supported) return "not checked: no ABI trampoline for this architecture";
  std::string s;
  if (ok()) {
    s = "ok";
  } else {
    s = "clobbered:";
    for (std::size_t i = 0; i < clobbered.size(); ++i) s += (i == 0 ? " " : ", ") + clobbered[i];
  }
  if (upper_vector_state_dirty) s += "; warning: upper vector state left dirty (vzeroupper missing?)";
  return s;
}

#if defined(__x86_64__) && defined(__ELF__)

bool can_check_upper_vector_state() { return (cpu_flags() & X86_FLAG_XINUSE) != 0; }

bool upper_state_blind_to_zeroing_idioms() {
  static const bool blind = [] {
    if (!can_check_upper_vector_state()) return false;
    std::uint32_t lo, hi;
    asm volatile("vzeroupper\n\tvpxor %%ymm0, %%ymm0, %%ymm0\n\txgetbv\n\tvzeroupper"
                 : "=a"(lo), "=d"(hi)
                 : "c"(1)
                 : "xmm0");
    return ((lo >> 2) & 1) == 0;
  }();
  return blind;
}

namespace {

// Preserving: a call made only to keep the caller's registers safe, not
// to report on them.
enum class Mode { kReport, kPreserve };

std::uint64_t run(X86State& s, RawFunction fn, std::span<const std::uintptr_t> args, Mode mode) {
  const auto a = padded(args);
  std::uint32_t flags = cpu_flags();
  if (mode == Mode::kReport) {
    const auto planted = values().distinct<6>();
    std::copy(planted.begin(), planted.end(), s.in_gpr);
  } else {
    // Fresh random values cost more than the trampoline itself, and
    // nothing compares against them; XINUSE (two xgetbv, microcoded on
    // AMD) only informs a report.
    flags &= ~X86_FLAG_XINUSE;
  }
  s.flags = flags;
  return lockstep_abi_trampoline(fn, &s, a[0], a[1], a[2], a[3], a[4], a[5]);
}

}  // namespace

std::uintptr_t call_raw_preserving(RawFunction fn, std::span<const std::uintptr_t> args) {
  X86State s{};
  return run(s, fn, args, Mode::kPreserve);
}

std::uintptr_t call_raw(Report& report, RawFunction fn, std::span<const std::uintptr_t> args) {
  report = Report{};
  X86State s{};
  const std::uint64_t result = run(s, fn, args, Mode::kReport);

  for (std::size_t i = 0; i < 6; ++i) {
    if (s.out_gpr[i] != s.in_gpr[i]) report.clobbered.emplace_back(kGprNames[i]);
  }
  if (s.rsp_after != s.rsp_before) report.clobbered.emplace_back("rsp");
  if (s.rflags_after & kDirectionFlag) report.clobbered.emplace_back("direction flag");
  if ((s.mxcsr_after ^ s.mxcsr_before) & kMxcsrControl) report.clobbered.emplace_back("mxcsr");
  if (s.fcw_after != s.fcw_before) report.clobbered.emplace_back("x87 control word");
  // Only components the callee brought into use: vzeroupper cannot clear
  // the opmasks or zmm16..31 the caller's own code may have left in use.
  if (can_check_upper_vector_state())
    report.upper_vector_state_dirty = (s.xinuse_after & ~s.xinuse_before & kUpperVectorState) != 0;
  return result;
}

#elif defined(__aarch64__) && defined(__ELF__)

bool can_check_upper_vector_state() { return false; }
bool upper_state_blind_to_zeroing_idioms() { return false; }

namespace {

std::uint64_t run(A64State& s, RawFunction fn, std::span<const std::uintptr_t> args) {
  const auto a = padded(args);
  const auto planted = values().distinct<19>();
  std::copy(planted.begin(), planted.begin() + 11, s.in_x);
  std::copy(planted.begin() + 11, planted.end(), s.in_d);
  return lockstep_abi_trampoline(fn, &s, a[0], a[1], a[2], a[3], a[4], a[5]);
}

}  // namespace

std::uintptr_t call_raw_preserving(RawFunction fn, std::span<const std::uintptr_t> args) {
  A64State s{};
  return run(s, fn, args);
}

std::uintptr_t call_raw(Report& report, RawFunction fn, std::span<const std::uintptr_t> args) {
  report = Report{};
  A64State s{};
  const std::uint64_t result = run(s, fn, args);

  for (std::size_t i = 0; i < 11; ++i) {
    if (s.out_x[i] != s.in_x[i]) report.clobbered.emplace_back(kXNames[i]);
  }
  if (s.sp_after != s.sp_before) report.clobbered.emplace_back("sp");
  for (std::size_t i = 0; i < 8; ++i) {
    if (s.out_d[i] != s.in_d[i]) report.clobbered.emplace_back(kDNames[i]);
  }
  return result;
}

#else

bool can_check_upper_vector_state() { return false; }
bool upper_state_blind_to_zeroing_idioms() { return false; }

std::uintptr_t call_raw(Report& report, RawFunction fn, std::span<const std::uintptr_t> args) {
  report = Report{};
  report.supported = false;
  return call_raw_preserving(fn, args);
}

std::uintptr_t call_raw_preserving(RawFunction fn, std::span<const std::uintptr_t> args) {
  const auto a = padded(args);
  // No trampoline: a plain call. Calling through a type other than fn's own
  // is formally undefined; the typed abi::call never comes here, and on the
  // usual ABIs integer arguments sit in the same registers however many the
  // callee declares.
  using Six = std::uintptr_t (*)(std::uintptr_t, std::uintptr_t, std::uintptr_t, std::uintptr_t,
                                 std::uintptr_t, std::uintptr_t);
  return reinterpret_cast<Six>(fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
}

#endif

}  // namespace lockstep::abi
