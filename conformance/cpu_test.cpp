// CPU detection and the LOCKSTEP_CPU mask.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cpu/cpu.h"

namespace lockstep::cpu {
namespace {

#if defined(__x86_64__)
const FeatureSet kHost = {Feature::kSse2, Feature::kSsse3, Feature::kSse41, Feature::kAvx,
                          Feature::kAvx2, Feature::kShaNi};
// A Sapphire Rapids-like set: every chain of the x86 features in use.
const FeatureSet kWide = kHost | FeatureSet{Feature::kBmi2, Feature::kAvx512f, Feature::kAvx512vl,
                                            Feature::kAvx512bw, Feature::kAvx512vbmi,
                                            Feature::kSha512};

// Test that hiding features removes exactly them when nothing builds on them.
// LOCKSTEP_CPU_IDENTITY's forms: the short vendor names and CPUID's own
// vendor strings, decimal and 0x-hex numbers, the optional stepping.
TEST(CpuIdentity, ParsesVendorFamilyModel) {
  const IdentityParse intel = parse_identity("intel:6:0xa7");
  EXPECT_EQ(intel.error, "");
  EXPECT_EQ(intel.id.vendor, "GenuineIntel");
  EXPECT_EQ(intel.id.family, 6u);
  EXPECT_EQ(intel.id.model, 0xa7u);
  EXPECT_EQ(intel.id.stepping, 0u);
  const IdentityParse zhaoxin = parse_identity("zhaoxin:7:0x6b:1");
  EXPECT_EQ(zhaoxin.id.vendor, "  Shanghai  ");
  EXPECT_EQ(zhaoxin.id.family, 7u);
  EXPECT_EQ(zhaoxin.id.model, 0x6bu);
  EXPECT_EQ(zhaoxin.id.stepping, 1u);
  const IdentityParse amd = parse_identity("AuthenticAMD:25:17");
  EXPECT_EQ(amd.id.vendor, "AuthenticAMD");
  EXPECT_EQ(amd.id.family, 0x19u);
  EXPECT_EQ(amd.id.model, 0x11u);
}

TEST(CpuIdentity, RejectsNamingTheField) {
  EXPECT_THAT(parse_identity("intel:6").error, testing::HasSubstr("expected VENDOR:FAMILY:MODEL[:STEPPING]"));
  EXPECT_THAT(parse_identity("nobody:6:1").error, testing::HasSubstr("the vendor 'nobody'"));
  EXPECT_THAT(parse_identity("intel:six:1").error, testing::HasSubstr("the family 'six'"));
  EXPECT_THAT(parse_identity("intel:6:0x1ff").error, testing::HasSubstr("the model '0x1ff'"));
  EXPECT_THAT(parse_identity("amd:0x17:1:16").error, testing::HasSubstr("the stepping '16'"));
  EXPECT_THAT(parse_identity("amd:0x17:1:16").error, testing::HasSubstr("LOCKSTEP_CPU_IDENTITY=amd:0x17:1:16"));
}

TEST(CpuMask, HidesFeatures) {
  MaskResult r = apply_mask(kHost, "-sha_ni, -avx2", false);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.effective, (FeatureSet{Feature::kSse2, Feature::kSsse3, Feature::kSse41, Feature::kAvx}));
  EXPECT_EQ(r.hidden, (FeatureSet{Feature::kAvx2, Feature::kShaNi}));
  EXPECT_TRUE(r.declared.empty());
  EXPECT_EQ(apply_mask(kHost, "avx2=off", false).effective, kHost - FeatureSet{Feature::kAvx2});
}

// Test that hiding a feature hides everything that builds on it: -avx takes
// avx2, the AVX-512 set and the (VEX-encoded) SHA512 extension with it, and
// leaves what does not need it.
TEST(CpuMask, HidingIsCumulative) {
  MaskResult r = apply_mask(kWide, "-avx", false);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.effective.to_string(), "sse2 ssse3 sse4_1 bmi2 sha_ni");
  EXPECT_EQ(apply_mask(kWide, "-avx512f", false).effective.to_string(),
            "sse2 ssse3 sse4_1 avx avx2 bmi2 sha_ni sha512");
  EXPECT_EQ(apply_mask(kWide, "-ssse3", false).effective.to_string(), "sse2 bmi2 sha_ni");
}

// Test that naming a feature brings the chain it stands on, as a CPU with
// it has, and that a chain link the CPU lacks is refused by name.
TEST(CpuMask, AddingBringsThePrerequisites) {
  EXPECT_EQ(apply_mask(kWide, "all=off,+avx2", false).effective.to_string(),
            "sse2 ssse3 sse4_1 avx avx2");
  EXPECT_EQ(apply_mask(kWide, "all=off,+avx512vbmi", false).effective.to_string(),
            "sse2 ssse3 sse4_1 avx avx2 avx512f avx512bw avx512vbmi");
  const MaskResult r = apply_mask(FeatureSet{Feature::kSse2}, "+avx2", false);
  EXPECT_NE(r.error.find("'+avx2'"), std::string::npos) << r.error;
}

// Test that a preference (prefer_ymm) may be declared without an emulator:
// it changes which usable backend is chosen, never what may run.
TEST(CpuMask, PreferenceNeedsNoEmulator) {
  const MaskResult r = apply_mask(kWide, "+prefer_ymm", false);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.effective.has(Feature::kPreferYmm));
  EXPECT_EQ(r.declared, FeatureSet{Feature::kPreferYmm});
}

// Test the prerequisite table: each link stays within its architecture, and
// with_prerequisites/closed agree with it.
TEST(CpuFeatures, PrerequisiteChains) {
  for (int i = 0; i < kFeatureCount; ++i) {
    const Feature f = static_cast<Feature>(i);
    const std::optional<Feature> p = prerequisite(f);
    if (!p) continue;
    EXPECT_EQ(feature_arch(*p), feature_arch(f)) << feature_name(f);
    EXPECT_TRUE(with_prerequisites(FeatureSet{f}).has(*p)) << feature_name(f);
    EXPECT_FALSE(closed(FeatureSet{f}).has(f)) << feature_name(f) << " kept without " << feature_name(*p);
    EXPECT_EQ(closed(with_prerequisites(FeatureSet{f})), with_prerequisites(FeatureSet{f}));
  }
}

// Test that all=off starts from nothing and later items add back, with
// their prerequisites.
TEST(CpuMask, AllOffThenKeep) {
  MaskResult r = apply_mask(kHost, "all=off,+ssse3", false);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.effective, (FeatureSet{Feature::kSse2, Feature::kSsse3}));
  EXPECT_EQ(apply_mask(kHost, "all=off,all=on", false).effective, kHost);
  EXPECT_EQ(apply_mask(kHost, "", false).effective, kHost);
}

// Test that declaring a missing feature is refused unless emulated.
TEST(CpuMask, DeclaringNeedsAnEmulator) {
  MaskResult refused = apply_mask(kHost, "+phe", false);
  EXPECT_NE(refused.error.find("+phe"), std::string::npos) << refused.error;
  EXPECT_NE(refused.error.find("LOCKSTEP_CPU_EMULATED_BY"), std::string::npos) << refused.error;

  MaskResult declared = apply_mask(kHost, "+phe", true);
  ASSERT_EQ(declared.error, "");
  EXPECT_TRUE(declared.effective.has(Feature::kPhe));
  EXPECT_EQ(declared.declared, FeatureSet{Feature::kPhe});
}

// Test that malformed masks are errors that name the culprit.
TEST(CpuMask, RejectsMalformed) {
  EXPECT_NE(apply_mask(kHost, "-avx3", false).error.find("unknown feature 'avx3'"), std::string::npos);
  EXPECT_NE(apply_mask(kHost, "avx2", false).error.find("'avx2'"), std::string::npos);
  EXPECT_NE(apply_mask(kHost, "avx2=maybe", false).error.find("on or off"), std::string::npos);
}

TEST(CpuMask, SpellingsOfShaNi) {
  EXPECT_EQ(parse_feature("shani"), Feature::kShaNi);
  EXPECT_EQ(parse_feature("sha_ni"), Feature::kShaNi);
  EXPECT_EQ(parse_feature("SHA_NI"), std::nullopt);
  // Names of the other architecture mean nothing here.
  EXPECT_EQ(parse_feature("asimd"), std::nullopt);
}

// Test that CPUID detection agrees with the kernel's view in /proc/cpuinfo
// (which also reflects XCR0: the kernel clears AVX flags it does not enable).
TEST(CpuDetect, AgreesWithProcCpuinfo) {
  std::ifstream in("/proc/cpuinfo");
  if (!in) GTEST_SKIP() << "no /proc/cpuinfo";
  std::string line;
  std::set<std::string> flags;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;) flags.insert(w);
    break;
  }
  if (flags.empty()) GTEST_SKIP() << "no flags line in /proc/cpuinfo";
  const FeatureSet detected = detect().features;
  for (Feature f : {Feature::kSse2, Feature::kSsse3, Feature::kSse41, Feature::kAvx,
                    Feature::kAvx2, Feature::kBmi2, Feature::kShaNi, Feature::kAvx512f,
                    Feature::kAvx512vl, Feature::kAvx512bw, Feature::kAvx512vbmi}) {
    const std::string name(feature_name(f));
    EXPECT_EQ(detected.has(f), flags.count(name) == 1) << name;
  }
  // No Centaur PadLock flags on a CPU the kernel does not report them for.
  EXPECT_EQ(detected.has(Feature::kPhe), flags.count("phe_en") == 1 && flags.count("phe") == 1 &&
                                             detect().id.family >= 7);
}
#endif  // __x86_64__

#if defined(__aarch64__)
const FeatureSet kHost = {Feature::kAsimd, Feature::kArmSha2, Feature::kArmSha512};

// Test that masking works with arm64's names, and refuses x86's.
TEST(CpuMask, Arm64Names) {
  MaskResult r = apply_mask(kHost, "-sha512", false);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.effective, (FeatureSet{Feature::kAsimd, Feature::kArmSha2}));
  EXPECT_EQ(apply_mask(kHost, "all=off,+sha2", false).effective,
            (FeatureSet{Feature::kAsimd, Feature::kArmSha2}));
  EXPECT_NE(apply_mask(kHost, "-sha_ni", false).error.find("unknown feature 'sha_ni'"),
            std::string::npos);
  EXPECT_NE(apply_mask(FeatureSet{Feature::kAsimd}, "+sha2", false).error.find("LOCKSTEP_CPU_EMULATED_BY"),
            std::string::npos);
}

// Test that hwcaps detection agrees with the kernel's Features line.
TEST(CpuDetect, AgreesWithProcCpuinfo) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::set<std::string> flags;
  while (in && std::getline(in, line)) {
    if (line.rfind("Features", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;) flags.insert(w);
    break;
  }
  // Under qemu-user /proc/cpuinfo is the host's: nothing to compare with.
  if (flags.empty()) GTEST_SKIP() << "no arm64 Features line in /proc/cpuinfo (qemu-user shows the host's)";
  const FeatureSet detected = detect().features;
  for (Feature f : {Feature::kAsimd, Feature::kArmSha2, Feature::kArmSha512})
    EXPECT_EQ(detected.has(f), flags.count(std::string(feature_name(f))) == 1) << feature_name(f);
}
#endif  // __aarch64__

}  // namespace
}  // namespace lockstep::cpu
