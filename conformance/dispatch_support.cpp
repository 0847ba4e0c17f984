#include "dispatch_support.h"

#include "reference.h"
#include "rng.h"

namespace lockstep::conformance {

// Subsets of a union of more features than this are sampled, not
// enumerated (2^12 masks is already plenty).
constexpr int kMaxEnumerated = 12;

std::string feature_names(cpu::FeatureSet s) { return s.empty() ? "(none)" : s.to_string(); }

const Backend* expected_default(const catalog::Family& f, cpu::FeatureSet features) {
  for (const Backend* b : f.backends())
    if (b->module.empty() && (b->needs - features).empty() && (b->avoid.bits() & features.bits()) == 0) return b;
  return nullptr;
}

std::vector<cpu::FeatureSet> dispatch_masks(const catalog::Family& f, uint64_t seed) {
  cpu::FeatureSet all;
  for (const Backend* b : f.backends()) all = all | b->needs | b->avoid;
  std::vector<cpu::Feature> features;
  for (int i = 0; i < cpu::kFeatureCount; ++i)
    if (all.has(static_cast<cpu::Feature>(i))) features.push_back(static_cast<cpu::Feature>(i));

  Rng rng(seed);
  std::vector<cpu::FeatureSet> masks;
  const bool enumerate = features.size() <= kMaxEnumerated;
  const uint64_t count = enumerate ? uint64_t{1} << features.size() : 4096;
  for (uint64_t m = 0; m < count; ++m) {
    const uint64_t pick = enumerate ? m : rng.u64();
    cpu::FeatureSet s;
    for (size_t i = 0; i < features.size(); ++i)
      if (pick >> i & 1) s.add(features[i]);
    // As a CPU would have them: avx2 comes with avx and what is below it.
    masks.push_back(cpu::with_prerequisites(s));
  }
  for (const Backend* b : f.backends()) masks.push_back(cpu::with_prerequisites(b->needs));
  masks.push_back(cpu::effective());
  return masks;
}

std::vector<Probe> probes_of(const catalog::Family& f, const Bytes& msg) {
  std::vector<Probe> out;
  for (const catalog::HashAlgorithm* alg : catalog::hash_algorithms()) {
    if (alg->family != &f) continue;
    const Bytes want = expected_digest(*alg, msg);
    const std::string name(alg->name);
    out.push_back({name, name + " digest", [alg, &msg] {
                     Bytes got(alg->digest_size);
                     alg->digest(msg.data(), msg.size(), got.data(), nullptr);
                     return got;
                   }, want});
    if (alg->finup_2x != nullptr)
      out.push_back({name, name + " finup_2x", [alg, &msg] {
                       Bytes o1(alg->digest_size), o2(alg->digest_size);
                       alg->finup_2x(nullptr, msg.data(), msg.data(), msg.size(), o1.data(),
                                     o2.data(), nullptr);
                       return o1 == o2 ? o1 : Bytes{};
                     }, want});
  }
  for (const catalog::CipherAlgorithm* c : catalog::cipher_algorithms()) {
    if (c->family != &f) continue;
    const auto nonce_end = msg.begin() + 32 + static_cast<ptrdiff_t>(c->nonce_size);
    const Bytes key(msg.begin(), msg.begin() + 32), nonce(msg.begin() + 32, nonce_end);
    out.push_back({std::string(c->name), std::string(c->name) + " crypt", [c, &msg, key, nonce] {
                     uint32_t state[16];
                     c->init(state, key.data(), 1, nonce.data());
                     Bytes got(msg.size());
                     c->crypt(state, got.data(), msg.data(), msg.size(), nullptr);
                     return got;
                   }, expected_chacha(*c, key, 1, nonce, msg)});
  }
  return out;
}

CallCounts call_counts() {
  CallCounts out;
  for (const catalog::Family* f : catalog::families())
    for (const Backend* b : f->backends()) out.emplace_back(b, b->calls.load());
  return out;
}

testing::AssertionResult ran_only(const CallCounts& before, const Backend* expected) {
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

}  // namespace lockstep::conformance
