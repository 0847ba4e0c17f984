// Dispatch: the default API picks the best backend that may run, and only
// that one runs (BoringSSL's impl_dispatch_test, STYLE items 3 and 10).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bytes.h"
#include "catalog.h"
#include "reference.h"
#include "rng.h"

namespace lockstep::conformance {
namespace {

// Subsets of a union of more features than this are sampled, not
// enumerated (2^12 masks is already plenty).
constexpr int kMaxEnumerated = 12;

std::string names(cpu::FeatureSet s) { return s.empty() ? "(none)" : s.to_string(); }

// expected_default works the choice out from the descriptors alone: the
// first backend in registry order whose needs are all in `features`.
const Backend* expected_default(const catalog::Family& f, cpu::FeatureSet features) {
  for (const Backend* b : f.backends())
    if ((b->needs - features).empty()) return b;
  return nullptr;
}

const catalog::HashAlgorithm* algorithm_of(const catalog::Family& f) {
  for (const catalog::HashAlgorithm* a : catalog::hash_algorithms())
    if (a->family == &f) return a;
  return nullptr;
}

const catalog::CipherAlgorithm* cipher_of(const catalog::Family& f) {
  for (const catalog::CipherAlgorithm* a : catalog::cipher_algorithms())
    if (a->family == &f) return a;
  return nullptr;
}

// Probe is one call through a family's default API (backend nullptr) and
// the answer it must give.
struct Probe {
  std::string what;
  std::function<Bytes()> run;
  Bytes want;
};

// probes_of lists what the dispatch test calls for a family: a digest (and
// finup_2x where the algorithm has it), or a ChaCha call.
std::vector<Probe> probes_of(const catalog::Family& f, const Bytes& msg) {
  std::vector<Probe> out;
  if (const catalog::HashAlgorithm* alg = algorithm_of(f)) {
    const Bytes want = expected_digest(*alg, msg);
    out.push_back({"digest", [alg, &msg] {
                     Bytes got(alg->digest_size);
                     alg->digest(msg.data(), msg.size(), got.data(), nullptr);
                     return got;
                   }, want});
    if (alg->finup_2x != nullptr)
      out.push_back({"finup_2x", [alg, &msg] {
                       Bytes o1(alg->digest_size), o2(alg->digest_size);
                       alg->finup_2x(nullptr, msg.data(), msg.data(), msg.size(), o1.data(),
                                     o2.data(), nullptr);
                       return o1 == o2 ? o1 : Bytes{};
                     }, want});
  } else if (const catalog::CipherAlgorithm* c = cipher_of(f)) {
    const Bytes key(msg.begin(), msg.begin() + 32), nonce(msg.begin() + 32, msg.begin() + 44);
    out.push_back({"crypt", [c, &msg, key, nonce] {
                     uint32_t state[16];
                     c->init(state, key.data(), 1, nonce.data());
                     Bytes got(msg.size());
                     c->crypt(state, got.data(), msg.data(), msg.size(), nullptr);
                     return got;
                   }, expected_chacha(*c, key, 1, nonce, msg)});
  }
  return out;
}

// Every backend of every family, with its call count.
std::vector<std::pair<const Backend*, uint64_t>> snapshot() {
  std::vector<std::pair<const Backend*, uint64_t>> out;
  for (const catalog::Family* f : catalog::families())
    for (const Backend* b : f->backends()) out.emplace_back(b, b->calls.load());
  return out;
}

// ran_only checks that between `before` and now, `expected` was called and
// no other backend was.
testing::AssertionResult ran_only(const std::vector<std::pair<const Backend*, uint64_t>>& before,
                                  const Backend* expected) {
  std::string wrong;
  bool expected_ran = false;
  for (const auto& [b, calls] : before) {
    const uint64_t delta = b->calls.load() - calls;
    if (b == expected)
      expected_ran = delta > 0;
    else if (delta != 0)
      wrong += " " + std::string(b->name) + " (+" + std::to_string(delta) + ")";
  }
  if (expected_ran && wrong.empty()) return testing::AssertionSuccess();
  testing::AssertionResult r = testing::AssertionFailure();
  if (!expected_ran) r << std::string(expected->name) << " was not called;";
  if (!wrong.empty()) r << " other backends ran:" << wrong;
  return r;
}

}  // namespace

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
        << f->name << ": default " << d->name << " needs " << names(d->needs - eff)
        << " that the CPU lacks; effective: " << names(eff);
    const Backend* first = expected_default(*f, eff);
    ASSERT_NE(first, nullptr) << f->name << ": no backend is usable";
    EXPECT_EQ(d->name, first->name)
        << f->name << ": default vs first usable; effective: " << names(eff);
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
    cpu::FeatureSet all;
    for (const Backend* b : f->backends()) all = all | b->needs;
    std::vector<cpu::Feature> features;
    for (int i = 0; i < cpu::kFeatureCount; ++i)
      if (all.has(static_cast<cpu::Feature>(i))) features.push_back(static_cast<cpu::Feature>(i));

    std::vector<cpu::FeatureSet> masks;
    const bool enumerate = features.size() <= kMaxEnumerated;
    const uint64_t count = enumerate ? uint64_t{1} << features.size() : 4096;
    for (uint64_t m = 0; m < count; ++m) {
      const uint64_t pick = enumerate ? m : rng.u64();
      cpu::FeatureSet s;
      for (size_t i = 0; i < features.size(); ++i)
        if (pick >> i & 1) s.add(features[i]);
      masks.push_back(s);
    }
    // Plus each backend's exact needs and the real set.
    for (const Backend* b : f->backends()) masks.push_back(b->needs);
    masks.push_back(real);

    const Bytes msg = rng.bytes(300);
    const std::vector<Probe> probes = probes_of(*f, msg);
    ASSERT_FALSE(probes.empty()) << f->name << " has no algorithm";

    int runnable = 0;
    for (const cpu::FeatureSet s : masks) {
      SCOPED_TRACE(testing::Message() << f->name << " under mask {" << names(s) << "}");
      const Backend* expected = expected_default(*f, s);
      ASSERT_NE(expected, nullptr) << "no backend is usable, not even generic";
      cpu::ScopedOverride mask_override(s);
      ASSERT_EQ(cpu::effective(), s) << "the override did not take";
      const Backend* d = f->default_backend();
      ASSERT_NE(d, nullptr);
      EXPECT_TRUE((d->needs - s).empty())
          << "default " << d->name << " needs " << names(d->needs - s) << " outside the mask";
      EXPECT_TRUE(d->usable(s)) << d->name << ".usable() is false under its own pick";
      EXPECT_EQ(d->name, expected->name) << "default vs first usable in registry order";

      // Only code whose instructions this CPU has may run.
      if (!(d->needs - real).empty()) continue;
      ++runnable;
      for (const Probe& p : probes) {
        const auto before = snapshot();
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

// Test that each algorithm named in LOCKSTEP_EXPECT_SELECTED
// ("sha256=sha256/x86-avx2,sha224=sha256/x86-avx2") selects exactly that
// backend by default, that it may run here, and that a digest through the
// default API runs it and nothing else. Emulated CPU models (qemu-x86_64
// -cpu ..., SDE) set the variable: there the CPU is known in advance, so the
// choice can be pinned rather than worked out from what was detected.
TEST(Dispatch, MatchesExpectedSelection) {
  const char* env = std::getenv("LOCKSTEP_EXPECT_SELECTED");
  if (env == nullptr || *env == '\0')
    GTEST_SKIP() << "LOCKSTEP_EXPECT_SELECTED is not set: no selection to compare with";
  const cpu::FeatureSet eff = cpu::effective();
  std::printf("effective: %s\n", names(eff).c_str());
  const std::string spec = env;
  for (size_t pos = 0; pos <= spec.size();) {
    const size_t comma = std::min(spec.find(',', pos), spec.size());
    const std::string item = spec.substr(pos, comma - pos);
    pos = comma + 1;
    const size_t eq = item.find('=');
    // A typo must not turn the check into a pass.
    ASSERT_TRUE(eq != std::string::npos && eq > 0 && eq + 1 < item.size())
        << "LOCKSTEP_EXPECT_SELECTED: '" << item << "' is not algorithm=backend";
    const std::string alg_name = item.substr(0, eq), want = item.substr(eq + 1);
    const catalog::Family* family = catalog::find_algorithm_family(alg_name);
    ASSERT_NE(family, nullptr) << "LOCKSTEP_EXPECT_SELECTED: unknown algorithm '" << alg_name << "'";
    ASSERT_NE(catalog::find_backend(want), nullptr)
        << "LOCKSTEP_EXPECT_SELECTED: unknown backend '" << want << "'";
    const Backend* d = family->default_backend();
    ASSERT_NE(d, nullptr) << alg_name;
    std::printf("%s: selected %.*s, expected %s\n", alg_name.c_str(),
                static_cast<int>(d->name.size()), d->name.data(), want.c_str());
    EXPECT_EQ(std::string(d->name), want) << alg_name << "; effective: " << names(eff);
    EXPECT_TRUE(d->usable(eff)) << d->name << " needs " << names(d->needs - eff);

    // Running it proves the model executes what it reports.
    Rng rng(test_seed());
    const Bytes msg = rng.bytes(1000);
    for (const Probe& p : probes_of(*family, msg)) {
      const auto before = snapshot();
      const Bytes got = p.run();
      EXPECT_TRUE(ran_only(before, d)) << alg_name << ": " << p.what << " through the default API";
      EXPECT_EQ(hex(got), hex(p.want)) << alg_name << ": " << p.what << ", " << d->name;
    }
  }
}

}  // namespace lockstep::conformance
