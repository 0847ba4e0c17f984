// lockstep's kernel environment (lockstep/kernel_compat.h and the host side,
// host/kernel_host.h) against the kernel's own semantics, through a
// glue file in the kernel's shape (glue.c): the boot CPU is the
// environment's, may_use_simd() follows LOCKSTEP_KERNEL_SIMD, a section
// saves and restores the vector state and refuses nesting and imbalance,
// and what the glue's init selects is recorded.
#include <gtest/gtest.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <cstring>
#include <string>

#include "conformance/kernel_env/glue.h"
#include "cpu/cpu.h"
#include "host/kernel_host.h"

extern "C" const lockstep_kernel_host* lockstep_kernel_host_v1;

namespace lockstep::module::kernel {
namespace {

using cpu::Feature;
using cpu::FeatureSet;

class KernelEnv : public ::testing::Test {
 protected:
  // What the loader does for a module: the table first, then the init.
  void SetUp() override {
    lockstep_kernel_host_v1 = host();
    glue_reset();
  }
  void TearDown() override { reset_thread_simd_mode(); }
};

FeatureSet simd_cpu() {
  if constexpr (cpu::build_arch() == cpu::Arch::kX86_64)
    return cpu::with_prerequisites({Feature::kAvx2, Feature::kBmi2});
  return cpu::with_prerequisites({Feature::kArmSha2});
}

TEST_F(KernelEnv, InitSelectsFromTheEnvironmentsCpu) {
  if (!cpu::effective().has_all(simd_cpu())) GTEST_SKIP() << "the host lacks " << simd_cpu().to_string();
  {
    // AVX2 without BMI2, as QEMU's Haswell,-bmi2 exposes it: the glue's
    // rule must leave the SIMD path out (arm64: no SHA-2).
    const cpu::ScopedOverride no_simd(cpu::effective() - FeatureSet{cpu::build_arch() == cpu::Arch::kX86_64
                                                                          ? Feature::kBmi2
                                                                          : Feature::kArmSha2});
    begin_module_init("glue-without");
    glue_mod_init();
    end_module_init();
    EXPECT_FALSE(glue_have_simd());
  }
  const size_t before = selections().size();
  begin_module_init("glue-with");
  glue_mod_init();
  end_module_init();
  EXPECT_TRUE(glue_have_simd());
  const std::vector<std::string> all = selections();
  ASSERT_EQ(all.size(), before + 2);
  EXPECT_EQ(all[before], "glue-with: static_call glue_blocks_arch = blocks_simd_or_generic");
  EXPECT_EQ(all[before + 1], "glue-with: static key have_simd on");
}

TEST_F(KernelEnv, SimdUsabilityIsTheEnvironments) {
  if (!cpu::effective().has_all(simd_cpu())) GTEST_SKIP() << "the host lacks " << simd_cpu().to_string();
  glue_mod_init();
  ASSERT_TRUE(glue_have_simd());
  glue_counts c{};
  set_thread_simd_mode(Simd::kUsable);
  glue_blocks(&c, 64 * 3);  // 3 chunks of 4 KiB
  EXPECT_EQ(c.simd, 192u);
  EXPECT_EQ(c.generic, 0u);
  set_thread_simd_mode(Simd::kUnusable);
  c = {};
  glue_blocks(&c, 64 * 3);
  EXPECT_EQ(c.simd, 0u);
  EXPECT_EQ(c.generic, 192u);
  // Usable and unusable by turns: one message goes down both paths.
  set_thread_simd_mode(Simd::kAlternate);
  c = {};
  glue_blocks(&c, 64 * 4);
  EXPECT_EQ(c.simd, 128u);
  EXPECT_EQ(c.generic, 128u);
}

TEST_F(KernelEnv, SectionsAreCountedAndClosed) {
  if (!cpu::effective().has_all(simd_cpu())) GTEST_SKIP() << "the host lacks " << simd_cpu().to_string();
  glue_mod_init();
  set_thread_simd_mode(Simd::kUsable);
  const SectionStats before = section_stats();
  glue_counts c{};
  glue_blocks(&c, 64 * 2 + 1);  // 4 KiB, 4 KiB, one block: three sections
  const SectionStats after = section_stats();
  EXPECT_EQ(after.sections - before.sections, 3u);
  EXPECT_FALSE(after.open);
}

// A yield point of the older arm64 NEON loops (kernel_compat.h's
// do_cond_yield_neon) ends the section and opens another.
TEST_F(KernelEnv, YieldPointIsASectionBoundary) {
  set_thread_simd_mode(Simd::kUsable);
  const SectionStats before = section_stats();
  glue_yield_in_section();
  const SectionStats after = section_stats();
  EXPECT_EQ(after.sections - before.sections, 2u);
  EXPECT_FALSE(after.open);
}

// The kernel's kernel_fpu_begin() hands its code the default MXCSR; every
// section gives the caller's control word back at its end (arm64: FPCR).
TEST_F(KernelEnv, SectionRestoresTheControlWord) {
  const unsigned saved = glue_control_word();
  unsigned outside, inside_expected;
  if constexpr (cpu::build_arch() == cpu::Arch::kX86_64) {
    outside = 0x7f80;  // exceptions masked, round toward zero
    inside_expected = 0x1f80;
  } else {
    outside = 1u << 22;  // round toward plus infinity
    inside_expected = outside;
  }
  const unsigned inside = glue_control_word_in_section(outside);
  const unsigned after = glue_control_word();
  EXPECT_EQ(inside, inside_expected);
  EXPECT_EQ(after, outside);
  glue_control_word_in_section(saved);
}

TEST_F(KernelEnv, NestedSectionStopsNamingTheCall) {
  EXPECT_DEATH(glue_nested_section(),
               "kernel environment: kernel_fpu_begin\\(\\): a section is already open, opened by "
               "kernel_fpu_begin");
}

TEST_F(KernelEnv, EndWithoutBeginStopsNamingTheCall) {
  EXPECT_DEATH(glue_end_without_begin(), "kernel environment: kernel_fpu_end\\(\\): no section is open");
}

TEST_F(KernelEnv, FeatureLockstepDoesNotModelStops) {
  EXPECT_EXIT(host()->cpu_has("avx10"), ::testing::ExitedWithCode(2),
              "the module asks for CPU feature 'avx10', which lockstep does not model");
}

#if defined(__x86_64__)
// boot_cpu_data against CPUID read here (leaf 0: vendor; leaf 1: family
// and model with their extended fields, as the SDM says to combine them).
TEST_F(KernelEnv, BootCpuDataIsCpuid) {
  unsigned a, b, c, d;
  ASSERT_TRUE(__get_cpuid(0, &a, &b, &c, &d));
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  ASSERT_TRUE(__get_cpuid(1, &a, &b, &c, &d));
  const unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
  const unsigned family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
  const unsigned model =
      base_family == 0x6 || base_family == 0xf ? base_model | ((a >> 16) & 0xf) << 4 : base_model;
  if (!cpu::state().identity_by.empty()) GTEST_SKIP() << "the environment models another CPU ("
                                                     << cpu::state().identity_by
                                                     << "): BootCpuDataIsTheEnvironments judges it";
  const std::string v = vendor;
  const unsigned want_vendor = v == "GenuineIntel"   ? 0
                               : v == "AuthenticAMD" ? 2
                               : v == "CentaurHauls" ? 5
                               : v == "HygonGenuine" ? 9
                               : v == "  Shanghai  " ? 10
                                                     : 0xff;
  unsigned got_family = 0, got_model = 0, got_vendor = 0;
  glue_boot_cpu(&got_family, &got_model, &got_vendor);
  EXPECT_EQ(got_family, family) << vendor;
  EXPECT_EQ(got_model, model) << vendor;
  EXPECT_EQ(got_vendor, want_vendor) << vendor;
}

// boot_cpu_data in an environment that models another CPU: its identity,
// whatever the host is (LOCKSTEP_CPU_IDENTITY here; a trap emulator's model
// in phe-trap and sha512ext-trap, where ctest runs this file again).
TEST_F(KernelEnv, BootCpuDataIsTheEnvironments) {
  const cpu::State& s = cpu::state();
  if (s.identity_by.empty()) GTEST_SKIP() << "no identity declared here: BootCpuDataIsCpuid judges the host's";
  unsigned got_family = 0, got_model = 0, got_vendor = 0;
  glue_boot_cpu(&got_family, &got_model, &got_vendor);
  EXPECT_EQ(got_family, s.identity.family) << s.identity_by;
  EXPECT_EQ(got_model, s.identity.model) << s.identity_by;
  const std::string v = s.identity.vendor;
  EXPECT_EQ(got_vendor, v == "GenuineIntel" ? 0u : v == "AuthenticAMD" ? 2u : v == "  Shanghai  " ? 10u : 0xffu)
      << s.identity_by;
}
#endif

TEST_F(KernelEnv, KconfigAndArithmetic) {
  EXPECT_EQ(glue_kconfig_set(), 1);
  EXPECT_EQ(glue_kconfig_unset(), 0);
  EXPECT_EQ(glue_round_up(65, 64), 128u);
  EXPECT_EQ(glue_round_up(64, 64), 64u);
  EXPECT_EQ(glue_div_round_up(129, 64), 3u);
}

}  // namespace
}  // namespace lockstep::module::kernel
