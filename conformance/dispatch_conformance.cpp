// The dispatch column: the rules that choose or pass over a row's backend,
// judged in that row, so that `lockstep run --backend X` shows them for X.
// The whole-registry dispatch tests (dispatch_test.cpp) stay as they are;
// these look at the same choice from one backend's side:
//   - on the CPUs written down in conformance/dispatch_profiles.json, the
//     family chooses what the table says wherever either names X (a lost
//     `avoid = prefer_ymm` moves the choice on Skylake-SP);
//   - under every feature set the family's choice depends on, X is chosen
//     only where its needs are met and it avoids nothing present, and then
//     only as the first such backend in registry order;
//   - where this CPU can run it, the default API runs X and nothing else,
//     with the right answer.
// A module's backend is never a default: its row checks that it is never
// chosen and never runs through the default API.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backend_fixture.h"
#include "catalog.h"
#include "dispatch_profiles.h"
#include "dispatch_support.h"
#include "params.h"
#include "rng.h"

namespace lockstep::conformance {
namespace {

const Backend* chosen_under(const catalog::Family& f, cpu::FeatureSet s) {
  cpu::ScopedOverride mask(s);
  return f.default_backend();
}

void chosen_where_the_profiles_say(const catalog::Family& f, const Backend& x) {
  const std::string family(f.name);
  int judged = 0;
  for (const DispatchProfile& p : dispatch_profiles()) {
    if (p.arch != cpu::build_arch()) continue;
    const auto it = p.select.find(family);
    if (it == p.select.end()) continue;
    const Backend* want = catalog::find_backend(it->second);
    if (want == nullptr) {
      ADD_FAILURE() << "conformance/dispatch_profiles.json: " << p.cpu << " selects " << it->second
                    << ", which this build does not have";
      continue;
    }
    const Backend* got = chosen_under(f, p.features);
    if (got != &x && want != &x) continue;
    ++judged;
    EXPECT_EQ(got->name, want->name) << "on " << p.cpu << " {" << feature_names(p.features) << "} the "
                                     << family << " registry chooses " << got->name
                                     << "; conformance/dispatch_profiles.json says " << want->name << " ("
                                     << p.source << ")";
  }
  // The generic backend is the fallback: a CPU without anything better is
  // not a product (arm64 always has ASIMD), and ChosenOnlyWhereItMayRun
  // proves it chosen under the empty set.
  if (x.module.empty() && judged == 0 && !x.needs.empty())
    ADD_FAILURE() << x.name << " is the choice on no " << cpu::arch_name(cpu::build_arch())
                  << " CPU of conformance/dispatch_profiles.json: add the CPUs that should choose it";
}

void chosen_only_where_it_may_run(const catalog::Family& f, const Backend& x) {
  int chosen = 0;
  for (const cpu::FeatureSet s : dispatch_masks(f, test_seed())) {
    const Backend* got = chosen_under(f, s);
    const Backend* want = expected_default(f, s);
    ASSERT_NE(got, nullptr) << "nothing chosen under {" << feature_names(s) << "}";
    if (got != &x && want != &x) continue;
    SCOPED_TRACE(testing::Message() << f.name << " under {" << feature_names(s) << "}");
    if (got == &x) {
      ++chosen;
      EXPECT_TRUE(x.module.empty()) << "a module's backend was chosen by dispatch";
      EXPECT_TRUE((x.needs - s).empty()) << x.name << " chosen without " << feature_names(x.needs - s);
      EXPECT_TRUE((x.avoid.bits() & s.bits()) == 0)
          << x.name << " chosen although it avoids " << feature_names(cpu::FeatureSet::from_bits(x.avoid.bits() & s.bits()));
      EXPECT_TRUE(x.preferred(s)) << x.name << ".preferred() is false under its own choice";
    }
    EXPECT_EQ(got->name, want != nullptr ? want->name : "(none)")
        << "the choice vs the first of lockstep's backends in registry order whose needs are met";
    if (testing::Test::HasFailure()) return;
  }
  if (x.module.empty()) {
    EXPECT_GT(chosen, 0) << x.name << " is chosen under no feature set: a backend before it in the registry "
                                      "is usable wherever it is";
  }
}

void default_api_runs_it(const catalog::Family& f, const Backend& x, const std::string& algorithm) {
  Rng rng(test_seed());
  const Bytes msg = rng.bytes(300);
  std::vector<Probe> probes;
  for (Probe& p : probes_of(f, msg))
    if (p.algorithm == algorithm) probes.push_back(std::move(p));
  ASSERT_FALSE(probes.empty()) << algorithm << " has nothing to call through the default API";

  const cpu::FeatureSet real = cpu::effective();
  if (!x.module.empty()) {
    for (const Probe& p : probes) {
      const uint64_t before = x.calls.load();
      const Bytes got = p.run();
      EXPECT_EQ(x.calls.load(), before) << p.what << " through the default API ran the module's " << x.name;
      EXPECT_EQ(hex(got), hex(p.want)) << p.what << " through the default API";
    }
    return;
  }
  // The feature set closest to the CPU's own that chooses X: the real one,
  // else X's exact needs, if this CPU has them.
  cpu::FeatureSet where;
  bool found = false;
  for (const cpu::FeatureSet s : {real, cpu::with_prerequisites(x.needs)}) {
    if ((s - real).empty() && expected_default(f, s) == &x) {
      where = s;
      found = true;
      break;
    }
  }
  if (!found) {
    if (!(x.needs - real).empty())
      return skip_with_reason("this CPU cannot run it: needs " + feature_names(x.needs - real));
    return skip_with_reason("not chosen under this CPU's features or under its exact needs");
  }
  cpu::ScopedOverride mask(where);
  ASSERT_EQ(f.default_backend(), &x) << "under {" << feature_names(where) << "}";
  for (const Probe& p : probes) {
    const CallCounts before = call_counts();
    const Bytes got = p.run();
    EXPECT_TRUE(ran_only(before, &x)) << p.what << " through the default API under {" << feature_names(where) << "}";
    EXPECT_EQ(hex(got), hex(p.want)) << p.what << " through the default API, " << x.name;
  }
}

// DispatchRow is a row of the column, a hash's (HashParam) or a cipher's
// (CipherParam): the checks need its family, its backend and its algorithm.
template <class Param>
class DispatchRow : public testing::TestWithParam<Param> {
 protected:
  const catalog::Family& family() const { return *this->GetParam().alg->family; }
  const Backend& backend() const { return *this->GetParam().backend; }
  std::string algorithm() const { return std::string(this->GetParam().alg->name); }
};

// The column's three tests in `Suite`, a DispatchRow. The suite names are
// the ones `lockstep run` files under the dispatch column (cli/cmd_run.cpp).
#define LOCKSTEP_DISPATCH_TESTS(Suite)                                                             \
  TEST_P(Suite, ChosenWhereTheProfilesSay) { chosen_where_the_profiles_say(family(), backend()); } \
  TEST_P(Suite, ChosenOnlyWhereItMayRun) { chosen_only_where_it_may_run(family(), backend()); }    \
  TEST_P(Suite, DefaultApiRunsIt) { default_api_runs_it(family(), backend(), algorithm()); }        \
  static_assert(true, "for the trailing semicolon")

class HashDispatch : public DispatchRow<HashParam> {};
INSTANTIATE_TEST_SUITE_P(All, HashDispatch, testing::ValuesIn(hash_params()), HashParamName());
LOCKSTEP_DISPATCH_TESTS(HashDispatch);

class CipherDispatch : public DispatchRow<CipherParam> {};
INSTANTIATE_TEST_SUITE_P(All, CipherDispatch, testing::ValuesIn(cipher_params()), CipherParamName());
LOCKSTEP_DISPATCH_TESTS(CipherDispatch);

// Test that the profile table's reader refuses what it cannot judge by,
// naming the profile and the field.
TEST(DispatchProfiles, BadTablesAreRefusedByName) {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {R"({"profiles": 3})", "f.json: not a JSON object with a \"profiles\" array"},
      {R"({"profiles": [{"cpu": "A", "arch": "mips", "source": "s"}]})",
       "f.json: profile 0 (A): field \"arch\": 'mips' is neither x86_64 nor arm64"},
      {R"({"profiles": [{"cpu": "A", "arch": "x86_64", "source": "s", "features": ["avx3"], "select": {}}]})",
       "f.json: profile 0 (A): field \"features\": \"avx3\" is not a x86_64 feature of lockstep's"},
      {R"({"profiles": [{"cpu": "A", "arch": "x86_64", "source": "s", "features": ["avx2"],
           "select": {"sha256": "sha512/generic"}}]})",
       "f.json: profile 0 (A): field \"select\": sha256: \"sha512/generic\" is not the name of a sha256 backend"},
      {R"({"profiles": [{"arch": "x86_64"}]})", "f.json: profile 0: field \"cpu\" must be a string"},
  };
  for (const Case& c : cases) {
    std::string error;
    EXPECT_TRUE(parse_dispatch_profiles(c.json, "f.json", error).empty()) << c.json;
    EXPECT_EQ(error, c.message) << c.json;
  }
  std::string error;
  const auto ok = parse_dispatch_profiles(
      R"({"profiles": [{"cpu": "A", "arch": "x86_64", "source": "s", "features": ["avx2"], "select": {"chacha": "chacha/x86-avx2"}}]})",
      "f.json", error);
  ASSERT_EQ(error, "");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_TRUE(ok[0].features.has(cpu::Feature::kAvx)) << "avx2's prerequisites are added";
  EXPECT_EQ(ok[0].select.at("chacha"), "chacha/x86-avx2");
}

}  // namespace
}  // namespace lockstep::conformance
