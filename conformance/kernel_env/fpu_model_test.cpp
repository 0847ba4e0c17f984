// The kernel_fpu models of lockstep's kernel environment
// (host/kernel_host.h's FpuModel) through the kernel-style glue of
// glue.c: in the lazy model one entry into the kernel saves the user's
// vector state once, however many sections it opens, the sections' ends
// give nothing back, and the return to user space restores it all; the
// strict model, which every check runs, saves and restores per section.
#include <gtest/gtest.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "conformance/kernel_env/glue.h"
#include "host/kernel_host.h"

extern "C" const lockstep_kernel_host* lockstep_kernel_host_v1;

namespace lockstep::module::kernel {
namespace {

class FpuModelTest : public ::testing::Test {
 protected:
  void SetUp() override { lockstep_kernel_host_v1 = host(); }
  void TearDown() override { set_thread_fpu_model(FpuModel::kStrict); }
};

TEST_F(FpuModelTest, ThreadsStartStrict) { EXPECT_EQ(thread_fpu_model(), FpuModel::kStrict); }

#if defined(__x86_64__)
// What the "user" holds before the entry, and what the sections write.
constexpr unsigned kUserMxcsr = 0x7f80;     // exceptions masked, round toward zero
constexpr unsigned kKernelMxcsr = 0x1f80;   // kernel_fpu_begin()'s default
constexpr unsigned kSectionMxcsr = 0x3f80;  // the default, rounding down

glue_entry entry() {
  glue_entry e{};
  e.mxcsr_user = kUserMxcsr;
  e.ymm = __builtin_cpu_supports("avx");
  for (size_t i = 0; i < sizeof e.user; ++i) e.user[i] = static_cast<unsigned char>(0x11 * (i % 15 + 1));
  std::fill(std::begin(e.section), std::end(e.section), 0xee);
  return e;
}

size_t watched(const glue_entry& e) { return e.ymm ? 32 : 16; }

TEST_F(FpuModelTest, LazyEntrySavesOnceAndTheReturnRestores) {
  ASSERT_EQ(set_thread_fpu_model(FpuModel::kLazy), FpuModel::kLazy);
  glue_entry e = entry();
  const SectionStats before = section_stats();
  glue_entry_two_sections(&e);
  const SectionStats after = section_stats();
  EXPECT_EQ(after.sections - before.sections, 2u);
  EXPECT_EQ(after.saves - before.saves, 1u) << "two sections of one entry save the user state once";
  EXPECT_EQ(after.restores - before.restores, 1u) << "only the return to user space restores";
  // Every begin hands its code the default MXCSR, the second one too.
  EXPECT_EQ(e.mxcsr_inside[0], kKernelMxcsr);
  EXPECT_EQ(e.mxcsr_inside[1], kKernelMxcsr);
  // The ends give nothing back: the last section's MXCSR and register.
  EXPECT_EQ(e.mxcsr_after_ends, kSectionMxcsr);
  EXPECT_EQ(std::memcmp(e.after_ends, e.section, 16), 0);
  // The return does, the upper half of ymm15 too.
  EXPECT_EQ(e.mxcsr_after_return, kUserMxcsr);
  EXPECT_EQ(std::memcmp(e.after_return, e.user, watched(e)), 0) << "ymm: " << e.ymm;
}

TEST_F(FpuModelTest, StrictSectionsSaveAndRestoreEach) {
  ASSERT_EQ(thread_fpu_model(), FpuModel::kStrict);
  glue_entry e = entry();
  const SectionStats before = section_stats();
  glue_entry_two_sections(&e);
  const SectionStats after = section_stats();
  EXPECT_EQ(after.sections - before.sections, 2u);
  EXPECT_EQ(after.saves - before.saves, 2u);
  EXPECT_EQ(after.restores - before.restores, 2u) << "one per end; the return has nothing to restore";
  EXPECT_EQ(e.mxcsr_inside[0], kKernelMxcsr);
  EXPECT_EQ(e.mxcsr_inside[1], kKernelMxcsr);
  // Each end gives the caller its state back, as the abi check expects.
  EXPECT_EQ(e.mxcsr_after_ends, kUserMxcsr);
  EXPECT_EQ(std::memcmp(e.after_ends, e.user, watched(e)), 0) << "ymm: " << e.ymm;
  EXPECT_EQ(e.mxcsr_after_return, kUserMxcsr);
  EXPECT_EQ(std::memcmp(e.after_return, e.user, watched(e)), 0) << "ymm: " << e.ymm;
}

TEST_F(FpuModelTest, AReturnWithoutASectionRestoresNothing) {
  ASSERT_EQ(set_thread_fpu_model(FpuModel::kLazy), FpuModel::kLazy);
  const SectionStats before = section_stats();
  return_to_user();
  EXPECT_EQ(section_stats().restores, before.restores);
  EXPECT_EQ(section_stats().saves, before.saves);
}

TEST_F(FpuModelTest, ReturnWithASectionOpenStops) {
  EXPECT_DEATH(
      {
        set_thread_fpu_model(FpuModel::kLazy);
        glue_return_inside_section();
      },
      "kernel environment: switch_fpu_return\\(\\): a section is open at the return to user space, "
      "opened by kernel_fpu_begin");
}

TEST_F(FpuModelTest, ChangingModelsInsideAnEntryStops) {
  EXPECT_DEATH(
      {
        set_thread_fpu_model(FpuModel::kLazy);
        glue_control_word_in_section(kKernelMxcsr);  // a section, and no return
        set_thread_fpu_model(FpuModel::kStrict);
      },
      "kernel environment: set_thread_fpu_model\\(\\): an entry's user state is still saved");
}

// What bench.md prints of the model: the instructions each model uses and
// the area, as the CPU reports them (CPUID leaf 0Dh, XGETBV), read here
// straight from the CPU.
TEST_F(FpuModelTest, InfoNamesTheInstructionsAndTheAreaTheCpuReports) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  __cpuid(1, a, b, c, d);
  const FpuModelInfo strict = fpu_model_info();
  EXPECT_STREQ(strict.model, "strict");
  if (!(c & (1u << 27))) {  // no OSXSAVE: the legacy area only
    EXPECT_STREQ(strict.save, "FXSAVE");
    EXPECT_EQ(strict.area_bytes, 512u);
    return;
  }
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  EXPECT_EQ(strict.xcr0, (uint64_t{hi} << 32) | lo);
  EXPECT_EQ(strict.xcr0 & 3, 3u);  // x87 and SSE state, always
  __cpuid_count(0xd, 0, a, b, c, d);
  EXPECT_EQ(strict.area_bytes, b);  // EBX: the area for XCR0's components
  EXPECT_STREQ(strict.save, "XSAVE");
  EXPECT_STREQ(strict.restore, "XRSTOR");
  __cpuid_count(0xd, 1, a, b, c, d);
  ASSERT_EQ(set_thread_fpu_model(FpuModel::kLazy), FpuModel::kLazy);
  const FpuModelInfo lazy = fpu_model_info();
  EXPECT_STREQ(lazy.model, "lazy");
  EXPECT_STREQ(lazy.save, (a & 1) ? "XSAVEOPT" : "XSAVE");
  EXPECT_STREQ(lazy.restore, "XRSTOR");
}
#else
TEST_F(FpuModelTest, Arm64KeepsTheStrictModel) {
  EXPECT_EQ(set_thread_fpu_model(FpuModel::kLazy), FpuModel::kStrict);
}
#endif

}  // namespace
}  // namespace lockstep::module::kernel
