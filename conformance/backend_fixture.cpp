#include "backend_fixture.h"

#include <cstdlib>
#include <string_view>

namespace lockstep::conformance {

void PrintTo(const HashParam& p, std::ostream* os) {
  *os << p.alg->name << " via " << p.backend->name;
}

std::string HashParamName::operator()(const testing::TestParamInfo<HashParam>& info) const {
  return param_name(*info.param.alg, *info.param.backend);
}

bool require_all() {
  const char* v = std::getenv("LOCKSTEP_REQUIRE_ALL");
  return v != nullptr && std::string_view(v) == "1";
}

std::string BackendTest::label() const {
  return std::string(alg().name) + " via " + std::string(backend()->name);
}

void BackendTest::SetUp() {
  seed_ = test_seed();
  rng_ = Rng(seed_);
  calls_at_setup_ = backend()->calls.load();
  excluded_calls_ = 0;

  const cpu::FeatureSet eff = cpu::effective();
  if (!backend()->usable(eff)) {
    const std::string missing = (backend()->needs - eff).to_string();
    const std::string have = eff.empty() ? "(none)" : eff.to_string();
    if (require_all()) {
      FAIL() << "needs " << missing << "; effective: " << have
             << " (LOCKSTEP_REQUIRE_ALL=1 forbids skipping " << backend()->name << ")";
    }
    GTEST_SKIP() << "needs " << missing << "; effective: " << have;
  }
}

void BackendTest::TearDown() {
  // A failed or skipped test has said what it has to say.
  if (IsSkipped() || HasFailure()) return;
  const uint64_t calls = backend()->calls.load() - calls_at_setup_ - excluded_calls_;
  EXPECT_GT(calls, 0u) << label() << ": the test never called into the backend it is named after";
}

Bytes BackendTest::digest(std::span<const uint8_t> msg) const {
  Bytes out(digest_size());
  alg().digest(msg.data(), msg.size(), out.data(), backend());
  return out;
}

Bytes BackendTest::hmac(std::span<const uint8_t> key, std::span<const uint8_t> msg) const {
  Bytes out(digest_size());
  alg().hmac(key.data(), key.size(), msg.data(), msg.size(), out.data(), backend());
  return out;
}

Bytes BackendTest::expected_digest(std::span<const uint8_t> msg) {
  const uint64_t before = generic()->calls.load();
  Bytes out = conformance::expected_digest(alg(), msg);
  if (generic() == backend()) excluded_calls_ += generic()->calls.load() - before;
  return out;
}

Bytes BackendTest::expected_hmac(std::span<const uint8_t> key, std::span<const uint8_t> msg) {
  const uint64_t before = generic()->calls.load();
  Bytes out = conformance::expected_hmac(alg(), key, msg);
  if (generic() == backend()) excluded_calls_ += generic()->calls.load() - before;
  return out;
}

Bytes BackendTest::generic_digest(std::span<const uint8_t> msg) {
  const uint64_t before = generic()->calls.load();
  Bytes out(digest_size());
  alg().digest(msg.data(), msg.size(), out.data(), generic());
  if (generic() == backend()) excluded_calls_ += generic()->calls.load() - before;
  return out;
}

}  // namespace lockstep::conformance
