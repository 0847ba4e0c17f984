// lockstep::abi has teeth: for every register it checks, a function that
// breaks exactly that register (testdata/clobber_<arch>.S) is reported with
// exactly that name and nothing else, while code that keeps the rules, hand
// written or compiled, passes.
#include "abi/abi_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <xmmintrin.h>
#endif

namespace lockstep::abi {
namespace {

using Names = std::vector<std::string>;

// Arguments must arrive in their own places: each one rotated by its own
// amount, so two swapped arguments change the result.
[[gnu::noinline]] std::uint64_t mix6(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d,
                                     std::uint64_t e, std::uint64_t f) {
  return a ^ std::rotl(b, 11) ^ std::rotl(c, 22) ^ std::rotl(d, 33) ^ std::rotl(e, 44) ^ std::rotl(f, 55);
}

// Compiled code that keeps values alive across calls, so the compiler puts
// them in callee-saved registers and must save and restore those itself.
[[gnu::noinline]] std::uint64_t step(std::uint64_t x) {
  asm volatile("" : "+r"(x));  // not folded into the caller
  return x * 0x9e3779b97f4a7c15ull + 1;
}
[[gnu::noinline]] std::uint64_t busy(const std::uint64_t* p, std::size_t n) {
  std::uint64_t s0 = 1, s1 = 2, s2 = 3, s3 = 4, s4 = 5, s5 = 6;
  for (std::size_t i = 0; i < n; ++i) {
    s0 = step(s0 ^ p[i]);
    s1 += step(s0 + s5);
    s2 ^= step(s1);
    s3 += s2 + step(s3);
    s4 ^= step(s4 + s0);
    s5 += step(s2 ^ s4);
  }
  return s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5;
}

enum class Small : std::int8_t { kMinusTwo = -2, kThree = 3 };

[[gnu::noinline]] std::int32_t narrow(std::int32_t a, std::uint8_t b, bool c, Small d, const char* e) {
  return a * 1000 + b * 10 + (c ? 5 : 0) + static_cast<std::int32_t>(d) + e[0];
}

TEST(AbiCall, ReportText) {
  Report r;
  EXPECT_EQ(r.to_string(), "ok");
  r.clobbered = {"rbx", "mxcsr"};
  EXPECT_EQ(r.to_string(), "clobbered: rbx, mxcsr");
  r.upper_vector_state_dirty = true;
  EXPECT_EQ(r.to_string(), "clobbered: rbx, mxcsr; warning: upper vector state left dirty (vzeroupper missing?)");
  r.supported = false;
  EXPECT_EQ(r.to_string(), "not checked: no ABI trampoline for this architecture");
}

TEST(AbiCall, SixArgumentsAndTheResultArriveIntact) {
  const std::uint64_t a[6] = {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x1111111111111111ull,
                              0x8000000000000001ull, 0x00000000ffffffffull, 0xdeadbeefcafef00dull};
  const std::uint64_t expected = mix6(a[0], a[1], a[2], a[3], a[4], a[5]);
  Report r;
  EXPECT_EQ(call(r, mix6, a[0], a[1], a[2], a[3], a[4], a[5]), expected);
  EXPECT_TRUE(r.ok()) << r.to_string();
  EXPECT_EQ(r.supported, kSupported);

  const std::uintptr_t words[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};
  EXPECT_EQ(call_raw(r, reinterpret_cast<RawFunction>(mix6), words), expected);
  EXPECT_TRUE(r.ok()) << r.to_string();
}

TEST(AbiCall, NarrowSignedEnumAndPointerArguments) {
  Report r;
  const char text[] = "A";
  EXPECT_EQ(call(r, narrow, -7, 200, true, Small::kMinusTwo, text), narrow(-7, 200, true, Small::kMinusTwo, text));
  EXPECT_EQ(call(r, narrow, 3, 0, false, Small::kThree, text), narrow(3, 0, false, Small::kThree, text));
  EXPECT_TRUE(r.ok()) << r.to_string();
}

TEST(AbiCall, CompiledCodePasses) {
  std::array<std::uint64_t, 64> data{};
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = i * 0x0101010101010101ull;
  Report r;
  EXPECT_EQ(call(r, busy, data.data(), data.size()), busy(data.data(), data.size()));
  EXPECT_TRUE(r.ok()) << r.to_string();
}

TEST(AbiCall, MoreThanSixArgumentsIsRefused) {
  const std::uintptr_t words[7] = {};
  Report r;
  EXPECT_THROW(call_raw(r, reinterpret_cast<RawFunction>(mix6), words), std::invalid_argument);
}

TEST(AbiCall, ReportIsOverwritten) {
  Report r;
  r.clobbered = {"stale"};
  r.upper_vector_state_dirty = true;
  call(r, mix6, 1, 2, 3, 4, 5, 6);
  EXPECT_TRUE(r.ok()) << r.to_string();
  EXPECT_FALSE(r.upper_vector_state_dirty);
}

// Two dumps of the callee-saved registers as the callee found them: every
// value distinct within a call, and none repeated in the next call.
[[maybe_unused]] void expect_fresh_and_distinct(const std::vector<std::uint64_t>& first,
                               const std::vector<std::uint64_t>& second) {
  const std::set<std::uint64_t> a(first.begin(), first.end());
  const std::set<std::uint64_t> b(second.begin(), second.end());
  EXPECT_EQ(a.size(), first.size()) << "a value planted in two registers";
  EXPECT_EQ(b.size(), second.size()) << "a value planted in two registers";
  for (std::uint64_t v : a) EXPECT_EQ(b.count(v), 0u) << "value " << v << " planted in two calls";
  EXPECT_EQ(a.count(0), 0u);
}

struct Clobber {
  const char* name;
  void (*fn)();
};

[[maybe_unused]] std::string clobber_name(const testing::TestParamInfo<Clobber>& info) { return info.param.name; }

class AbiClobber : public testing::TestWithParam<Clobber> {};

TEST_P(AbiClobber, NamesExactlyThatRegister) {
  Report r;
  call(r, GetParam().fn);
  EXPECT_EQ(r.clobbered, Names{GetParam().name});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.to_string(), std::string("clobbered: ") + GetParam().name);
}

// Test that without a report the caller still gets its registers back: the
// broken callee returns into a caller that goes on, twice.
TEST_P(AbiClobber, PreservingCallRestoresTheCaller) {
  volatile int survived = 0;
  call_preserving(GetParam().fn);
  survived = survived + 1;
  call_preserving(GetParam().fn);
  survived = survived + 1;
  EXPECT_EQ(survived, 2);
  Report r;
  call(r, GetParam().fn);
  EXPECT_FALSE(r.ok()) << "the clobber must still be there to be restored";
}

}  // namespace
}  // namespace lockstep::abi

#if defined(__x86_64__) && defined(__ELF__)

extern "C" {
void abi_test_x86_well_behaved();
void abi_test_x86_clobber_rbx();
void abi_test_x86_clobber_rbp();
void abi_test_x86_clobber_r12();
void abi_test_x86_clobber_r13();
void abi_test_x86_clobber_r14();
void abi_test_x86_clobber_r15();
void abi_test_x86_raise_rsp();
void abi_test_x86_set_df();
void abi_test_x86_change_mxcsr();
void abi_test_x86_mxcsr_status();
void abi_test_x86_change_fcw();
void abi_test_x86_dirty_ymm();
void abi_test_x86_clean_ymm();
void abi_test_x86_dirty_zmm();
bool abi_test_x86_false_in_low_byte();
bool abi_test_x86_true_in_low_byte();
void abi_test_x86_dump(std::uint64_t out[6]);
}

namespace lockstep::abi {
namespace {

std::uint16_t fcw() {
  std::uint16_t cw;
  asm volatile("fnstcw %0" : "=m"(cw));
  return cw;
}

std::uint64_t xcr0() {
  std::uint32_t lo, hi;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (std::uint64_t{hi} << 32) | lo;
}

// AVX-512F that the OS manages: CPUID.7:EBX bit 16, XCR0 opmask and ZMM bits.
bool have_avx512f() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return false;
  if ((xcr0() & 0xe6) != 0xe6) return false;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 16) & 1);
}

INSTANTIATE_TEST_SUITE_P(X86_64, AbiClobber,
                         testing::Values(Clobber{"rbx", abi_test_x86_clobber_rbx},
                                         Clobber{"rbp", abi_test_x86_clobber_rbp},
                                         Clobber{"r12", abi_test_x86_clobber_r12},
                                         Clobber{"r13", abi_test_x86_clobber_r13},
                                         Clobber{"r14", abi_test_x86_clobber_r14},
                                         Clobber{"r15", abi_test_x86_clobber_r15}),
                         clobber_name);

TEST(AbiX86_64, WellBehavedAssemblyPasses) {
  Report r;
  call(r, abi_test_x86_well_behaved);
  EXPECT_TRUE(r.ok()) << r.to_string();
  EXPECT_TRUE(r.supported);
}

// A function cannot simply ret with rsp moved: ret would pop whatever lies
// at the new rsp and jump there. This one pops its return address, raises
// rsp one more slot, and jumps back; the trampoline survives that (see
// x86_64_trampoline.S) and puts rsp right. Lowering rsp is not tested: the
// trampoline cannot survive it.
TEST(AbiX86_64, RaisedRspIsCaught) {
  Report r;
  call(r, abi_test_x86_raise_rsp);
  EXPECT_EQ(r.clobbered, Names{"rsp"});
}

TEST(AbiX86_64, DirectionFlagLeftSetIsCaughtAndCleared) {
  Report r;
  call(r, abi_test_x86_set_df);
  EXPECT_EQ(r.clobbered, Names{"direction flag"});
  EXPECT_EQ(__builtin_ia32_readeflags_u64() & (1u << 10), 0u) << "the trampoline left DF set";
}

TEST(AbiX86_64, MxcsrControlChangeIsCaughtAndUndone) {
  const unsigned before = _mm_getcsr();
  Report r;
  call(r, abi_test_x86_change_mxcsr);
  EXPECT_EQ(r.clobbered, Names{"mxcsr"});
  EXPECT_EQ(_mm_getcsr(), before) << "the trampoline left the callee's MXCSR";
}

// The exception flags are status, which the ABI leaves to the callee.
TEST(AbiX86_64, MxcsrStatusFlagIsNotAViolation) {
  Report r;
  call(r, abi_test_x86_mxcsr_status);
  EXPECT_TRUE(r.ok()) << r.to_string();
}

TEST(AbiX86_64, X87ControlWordChangeIsCaughtAndUndone) {
  const std::uint16_t before = fcw();
  Report r;
  call(r, abi_test_x86_change_fcw);
  EXPECT_EQ(r.clobbered, Names{"x87 control word"});
  EXPECT_EQ(fcw(), before) << "the trampoline left the callee's control word";
}

TEST(AbiX86_64, DirtyYmmUpperIsAWarning) {
  if (!can_check_upper_vector_state())
    GTEST_SKIP() << "this CPU cannot tell: it lacks AVX, or XGETBV with ECX=1 "
                    "(CPUID.(EAX=0DH,ECX=1):EAX bit 2), or its XINUSE does not "
                    "track vzeroupper (QEMU's TCG)";
  Report r;
  call(r, abi_test_x86_dirty_ymm);
  EXPECT_TRUE(r.upper_vector_state_dirty);
  EXPECT_TRUE(r.ok()) << "a warning, not a failure: " << r.to_string();
  EXPECT_NE(r.to_string().find("warning"), std::string::npos);

  call(r, abi_test_x86_clean_ymm);
  EXPECT_FALSE(r.upper_vector_state_dirty) << "vzeroupper before returning is clean";
  EXPECT_TRUE(r.ok()) << r.to_string();
}

TEST(AbiX86_64, DirtyZmmUpperIsAWarning) {
  if (!can_check_upper_vector_state())
    GTEST_SKIP() << "this CPU cannot tell dirty upper state (see DirtyYmmUpperIsAWarning)";
  if (!have_avx512f()) GTEST_SKIP() << "no AVX-512F (or the OS does not enable its state)";
  Report r;
  call(r, abi_test_x86_dirty_zmm);
  EXPECT_TRUE(r.upper_vector_state_dirty);
  EXPECT_TRUE(r.ok()) << r.to_string();
}

TEST(AbiX86_64, CleanCallsAreNotDirty) {
  Report r;
  call(r, abi_test_x86_well_behaved);
  EXPECT_FALSE(r.upper_vector_state_dirty);
  call(r, mix6, 1, 2, 3, 4, 5, 6);
  EXPECT_FALSE(r.upper_vector_state_dirty);
}

TEST(AbiX86_64, BoolResultIsTheLowByteOnly) {
  Report r;
  EXPECT_FALSE(call(r, abi_test_x86_false_in_low_byte));
  EXPECT_TRUE(call(r, abi_test_x86_true_in_low_byte));
  EXPECT_EQ(call_raw(r, reinterpret_cast<RawFunction>(abi_test_x86_false_in_low_byte), {}), 0x100u);
}

TEST(AbiX86_64, PlantedValuesAreFreshAndDistinct) {
  std::vector<std::uint64_t> first(6), second(6);
  Report r;
  call(r, abi_test_x86_dump, first.data());
  EXPECT_TRUE(r.ok()) << r.to_string();
  call(r, abi_test_x86_dump, second.data());
  EXPECT_TRUE(r.ok()) << r.to_string();
  expect_fresh_and_distinct(first, second);
}

}  // namespace
}  // namespace lockstep::abi

#elif defined(__aarch64__) && defined(__ELF__)

extern "C" {
void abi_test_a64_well_behaved();
void abi_test_a64_clobber_x19();
void abi_test_a64_clobber_x20();
void abi_test_a64_clobber_x21();
void abi_test_a64_clobber_x22();
void abi_test_a64_clobber_x23();
void abi_test_a64_clobber_x24();
void abi_test_a64_clobber_x25();
void abi_test_a64_clobber_x26();
void abi_test_a64_clobber_x27();
void abi_test_a64_clobber_x28();
void abi_test_a64_clobber_x29();
void abi_test_a64_clobber_d8();
void abi_test_a64_clobber_d9();
void abi_test_a64_clobber_d10();
void abi_test_a64_clobber_d11();
void abi_test_a64_clobber_d12();
void abi_test_a64_clobber_d13();
void abi_test_a64_clobber_d14();
void abi_test_a64_clobber_d15();
void abi_test_a64_clobber_v8_upper();
void abi_test_a64_raise_sp();
bool abi_test_a64_false_in_low_byte();
bool abi_test_a64_true_in_low_byte();
void abi_test_a64_dump(std::uint64_t out[19]);
}

namespace lockstep::abi {
namespace {

INSTANTIATE_TEST_SUITE_P(AArch64, AbiClobber,
                         testing::Values(Clobber{"x19", abi_test_a64_clobber_x19},
                                         Clobber{"x20", abi_test_a64_clobber_x20},
                                         Clobber{"x21", abi_test_a64_clobber_x21},
                                         Clobber{"x22", abi_test_a64_clobber_x22},
                                         Clobber{"x23", abi_test_a64_clobber_x23},
                                         Clobber{"x24", abi_test_a64_clobber_x24},
                                         Clobber{"x25", abi_test_a64_clobber_x25},
                                         Clobber{"x26", abi_test_a64_clobber_x26},
                                         Clobber{"x27", abi_test_a64_clobber_x27},
                                         Clobber{"x28", abi_test_a64_clobber_x28},
                                         Clobber{"x29", abi_test_a64_clobber_x29},
                                         Clobber{"d8", abi_test_a64_clobber_d8},
                                         Clobber{"d9", abi_test_a64_clobber_d9},
                                         Clobber{"d10", abi_test_a64_clobber_d10},
                                         Clobber{"d11", abi_test_a64_clobber_d11},
                                         Clobber{"d12", abi_test_a64_clobber_d12},
                                         Clobber{"d13", abi_test_a64_clobber_d13},
                                         Clobber{"d14", abi_test_a64_clobber_d14},
                                         Clobber{"d15", abi_test_a64_clobber_d15}),
                         clobber_name);

TEST(AbiAArch64, WellBehavedAssemblyPasses) {
  Report r;
  call(r, abi_test_a64_well_behaved);
  EXPECT_TRUE(r.ok()) << r.to_string();
  EXPECT_TRUE(r.supported);
}

// AAPCS64 keeps only the low 64 bits of v8..v15.
TEST(AbiAArch64, UpperHalfOfV8IsTheCalleesToChange) {
  Report r;
  call(r, abi_test_a64_clobber_v8_upper);
  EXPECT_TRUE(r.ok()) << r.to_string();
}

// ret returns through x30, so a callee that moves sp comes back; the
// trampoline finds its state despite it (see aarch64_trampoline.S).
TEST(AbiAArch64, RaisedSpIsCaught) {
  Report r;
  call(r, abi_test_a64_raise_sp);
  EXPECT_EQ(r.clobbered, Names{"sp"});
}

TEST(AbiAArch64, NoUpperVectorCheck) {
  EXPECT_FALSE(can_check_upper_vector_state());
  Report r;
  call(r, abi_test_a64_well_behaved);
  EXPECT_FALSE(r.upper_vector_state_dirty);
}

TEST(AbiAArch64, BoolResultIsTheLowByteOnly) {
  Report r;
  EXPECT_FALSE(call(r, abi_test_a64_false_in_low_byte));
  EXPECT_TRUE(call(r, abi_test_a64_true_in_low_byte));
  EXPECT_EQ(call_raw(r, reinterpret_cast<RawFunction>(abi_test_a64_false_in_low_byte), {}), 0x100u);
}

TEST(AbiAArch64, PlantedValuesAreFreshAndDistinct) {
  std::vector<std::uint64_t> first(19), second(19);
  Report r;
  call(r, abi_test_a64_dump, first.data());
  EXPECT_TRUE(r.ok()) << r.to_string();
  call(r, abi_test_a64_dump, second.data());
  EXPECT_TRUE(r.ok()) << r.to_string();
  expect_fresh_and_distinct(first, second);
}

}  // namespace
}  // namespace lockstep::abi

#else

namespace lockstep::abi {
namespace {

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AbiClobber);

TEST(AbiUnsupported, CallsThroughAndSaysSo) {
  Report r;
  EXPECT_EQ(call(r, mix6, 1, 2, 3, 4, 5, 6), mix6(1, 2, 3, 4, 5, 6));
  EXPECT_FALSE(r.supported);
  EXPECT_FALSE(can_check_upper_vector_state());
}

}  // namespace
}  // namespace lockstep::abi

#endif
