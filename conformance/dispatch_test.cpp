// Dispatch: the default API picks the best backend that may run, and only
// that one runs, as BoringSSL's impl_dispatch_test checks: code for
// instructions the CPU lacks is never picked, and call counts prove what ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bytes.h"
#include "dispatch_support.h"
#include "catalog.h"
#include "cpu_models.h"
#include "reference.h"
#include "rng.h"

namespace lockstep::conformance {

// Test that every registry ends with a generic backend that needs nothing,
// so that dispatch always has something safe to fall back on.
TEST(Dispatch, GenericIsLastAndNeedsNothing) {
  for (const catalog::Family* f : catalog::families()) {
    const auto backends = f->backends();
    ASSERT_FALSE(backends.empty()) << f->name;
    EXPECT_TRUE(backends.back()->needs.empty())
        << f->name << ": last backend " << backends.back()->name << " needs "
        << backends.back()->needs.to_string();
    EXPECT_EQ(backends.back()->name, std::string(f->name) + "/generic") << f->name;
    for (const Backend* b : backends)
      EXPECT_EQ(catalog::family_of(b), f) << b->name << " is listed in " << f->name;
  }
}

// Test that with the real effective features the default backend of each
// family needs nothing the CPU lacks and is the first usable one.
TEST(Dispatch, DefaultIsUsableOnThisCpu) {
  const cpu::FeatureSet eff = cpu::effective();
  for (const catalog::Family* f : catalog::families()) {
    const Backend* d = f->default_backend();
    ASSERT_NE(d, nullptr) << f->name;
    EXPECT_TRUE((d->needs - eff).empty())
        << f->name << ": default " << d->name << " needs " << feature_names(d->needs - eff)
        << " that the CPU lacks; effective: " << feature_names(eff);
    const Backend* first = expected_default(*f, eff);
    ASSERT_NE(first, nullptr) << f->name << ": no backend is usable";
    EXPECT_EQ(d->name, first->name)
        << f->name << ": default vs first usable; effective: " << feature_names(eff);
    std::printf("%.*s: default backend %.*s\n", static_cast<int>(f->name.size()), f->name.data(),
                static_cast<int>(d->name.size()), d->name.data());
  }
}

// Test dispatch under every subset of the features that a family's
// backends need (the empty set included), forced with cpu::ScopedOverride:
// the default backend must be usable under the mask and be the first usable
// one in registry order, and where the mask asks for nothing this CPU lacks
// (so the code can run here), a digest through the default API must call
// exactly that backend and no other, and give the expected digest.
TEST(Dispatch, DefaultFollowsEveryMask) {
  const cpu::FeatureSet real = cpu::effective();
  Rng rng(test_seed());
  for (const catalog::Family* f : catalog::families()) {
    const std::vector<cpu::FeatureSet> masks = dispatch_masks(*f, rng.u64());

    const Bytes msg = rng.bytes(300);
    const std::vector<Probe> probes = probes_of(*f, msg);
    ASSERT_FALSE(probes.empty()) << f->name << " has no algorithm";

    int runnable = 0;
    for (const cpu::FeatureSet s : masks) {
      SCOPED_TRACE(testing::Message() << f->name << " under mask {" << feature_names(s) << "}");
      const Backend* expected = expected_default(*f, s);
      ASSERT_NE(expected, nullptr) << "no backend is usable, not even generic";
      cpu::ScopedOverride mask_override(s);
      ASSERT_EQ(cpu::effective(), s) << "the override did not take";
      const Backend* d = f->default_backend();
      ASSERT_NE(d, nullptr);
      EXPECT_TRUE((d->needs - s).empty())
          << "default " << d->name << " needs " << feature_names(d->needs - s) << " outside the mask";
      EXPECT_TRUE(d->preferred(s)) << d->name << ".preferred() is false under its own pick";
      EXPECT_EQ(d->name, expected->name) << "default vs first usable in registry order";

      // Only code whose instructions this CPU has may run.
      if (!(d->needs - real).empty()) continue;
      ++runnable;
      for (const Probe& p : probes) {
        const auto before = call_counts();
        const Bytes got = p.run();
        EXPECT_TRUE(ran_only(before, d)) << p.what << " through the default API";
        EXPECT_EQ(hex(got), hex(p.want)) << p.what << " through the default API, " << d->name;
      }
      if (HasFailure()) return;
    }
    EXPECT_GT(runnable, 0) << f->name << ": no mask could run here";
    // The override is gone: the default is back to the real choice.
    ASSERT_NE(expected_default(*f, real), nullptr);
    EXPECT_EQ(f->default_backend()->name, expected_default(*f, real)->name)
        << f->name << ": after the overrides";
  }
}

// Test that finup_2x_is_optimized(nullptr) answers for the default
// backend, as every catalog function taking a backend treats nullptr.
TEST(Dispatch, Finup2xIsOptimizedNullMeansDefault) {
  int checked = 0;
  for (const catalog::HashAlgorithm* alg : catalog::hash_algorithms()) {
    if (alg->finup_2x_is_optimized == nullptr) continue;
    ++checked;
    const Backend* d = alg->family->default_backend();
    EXPECT_EQ(alg->finup_2x_is_optimized(nullptr), alg->finup_2x_is_optimized(d))
        << alg->name << ": default backend " << d->name;
  }
  EXPECT_GT(checked, 0) << "no algorithm has finup_2x";
}

// Test what the model table implies for the 512-bit ChaCha code, with no
// emulator needed: wherever a model has AVX-512VL, its ChaCha choice is the
// zmm backend unless the model prefers ymm, where it is the ymm AVX-512VL
// one; and the table marks the parts the kernel's zmm exclusion list names
// (Skylake-X, Ice Lake) and not Sapphire Rapids. The SDE rows run the same
// derivation under the emulator.
TEST(Dispatch, ModelTablePrefersYmmWhereTheKernelDoes) {
  const catalog::Family* chacha = catalog::find_family("chacha");
  ASSERT_NE(chacha, nullptr);
  const Backend* zmm = catalog::find_backend("chacha/x86-avx512f");
  const Backend* ymm = catalog::find_backend("chacha/x86-avx512vl");
  if (zmm == nullptr || ymm == nullptr) GTEST_SKIP() << "no AVX-512 ChaCha backends in this build";
  int checked = 0;
  for (const models::Model& m : models::table().models) {
    if (m.arch != cpu::build_arch() || !m.features.has(cpu::Feature::kAvx512vl)) continue;
    ++checked;
    const Backend* want = m.features.has(cpu::Feature::kPreferYmm) ? ymm : zmm;
    EXPECT_EQ(expected_default(*chacha, m.features), want) << m.id;
  }
  EXPECT_GT(checked, 0) << "no AVX-512 model in emulation/cpu_models.json";
  // The kernel's list, as published (arch/x86/kernel/cpu/intel.c).
  for (const auto& [id, prefers_ymm] : {std::pair{"sde-skx", true}, std::pair{"sde-icl", true},
                                        std::pair{"sde-spr", false}}) {
    const models::Model* m = models::find(id);
    ASSERT_NE(m, nullptr) << id;
    EXPECT_EQ(m->features.has(cpu::Feature::kPreferYmm), prefers_ymm) << id;
    EXPECT_EQ(expected_default(*chacha, m->features), prefers_ymm ? ymm : zmm) << id;
  }
}

// Test that on the CPU model named by LOCKSTEP_CPU_MODEL (an entry of
// emulation/cpu_models.json: "qemu-x86_64-Haswell", "sde-skx"), the CPU
// reports exactly the features the table gives it, and that every family
// selects, and runs, the backend its registry prefers under those features.
// The expectation is worked out here from the table and the descriptors,
// never written down, so a new backend is expected wherever its needs are
// met. The emulated runs set the variable; natively there is no model.
TEST(Dispatch, MatchesCpuModel) {
  const char* id = std::getenv("LOCKSTEP_CPU_MODEL");
  if (id == nullptr || *id == '\0')
    GTEST_SKIP() << "LOCKSTEP_CPU_MODEL is not set: not running under a CPU model";
  const models::Model* model = models::find(id);
  ASSERT_NE(model, nullptr) << "LOCKSTEP_CPU_MODEL=" << id
                            << " is not a model of emulation/cpu_models.json";
  ASSERT_EQ(model->arch, cpu::build_arch())
      << id << " is an " << cpu::arch_name(model->arch) << " model; this is an "
      << cpu::arch_name(cpu::build_arch()) << " build";
  const cpu::State& st = cpu::state();
  ASSERT_TRUE(st.mask.empty() && st.in_process_emulated.empty())
      << "LOCKSTEP_CPU or an in-process emulator changes what model " << id << " offers";
  std::printf("model %s: %s\n", id, feature_names(model->features).c_str());
  // A table entry that the emulator contradicts is a finding either way.
  EXPECT_EQ(feature_names(st.detection.features), feature_names(model->features))
      << id << " reports other features than emulation/cpu_models.json gives it (its source: "
      << model->source << ")";

  Rng rng(test_seed());
  const Bytes msg = rng.bytes(1000);
  for (const catalog::Family* f : catalog::families()) {
    const Backend* want = expected_default(*f, model->features);
    ASSERT_NE(want, nullptr) << f->name;
    const Backend* d = f->default_backend();
    ASSERT_NE(d, nullptr) << f->name;
    std::printf("%.*s: selected %.*s, expected %.*s\n", static_cast<int>(f->name.size()),
                f->name.data(), static_cast<int>(d->name.size()), d->name.data(),
                static_cast<int>(want->name.size()), want->name.data());
    EXPECT_EQ(d->name, want->name) << f->name << " on " << id;
    // Running it proves the model executes what it reports.
    for (const Probe& p : probes_of(*f, msg)) {
      const auto before = call_counts();
      const Bytes got = p.run();
      EXPECT_TRUE(ran_only(before, d)) << p.what << " through the default API on " << id;
      EXPECT_EQ(hex(got), hex(p.want)) << p.what << ", " << d->name << " on " << id;
    }
  }
}

}  // namespace lockstep::conformance
