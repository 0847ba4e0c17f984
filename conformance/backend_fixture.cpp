#include "backend_fixture.h"

#include <cstdio>

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

bool module_declines(const Backend& b) {
  if (!b.broken.empty()) {
    ADD_FAILURE() << b.name << ": " << b.broken;
    return true;
  }
  if (b.unavailable.empty()) return false;
  skip_with_reason(std::string(b.unavailable));
  return true;
}

void BackendScope::enter(const Backend* b) {
  backend_ = b;
  calls_at_enter_ = b->calls.load();
  excluded_calls_ = 0;
  const cpu::FeatureSet eff = cpu::effective();
  // Fatal: gtest then runs nothing of the test's body.
  if (!b->broken.empty()) FAIL() << b->name << ": " << b->broken;
  if (!b->unavailable.empty()) return skip_with_reason(std::string(b->unavailable));
  if (!b->usable(eff)) {
    const std::string missing = (b->needs - eff).to_string();
    const std::string have = eff.empty() ? "(none)" : eff.to_string();
    if (require_all()) {
      FAIL() << "needs " << missing << "; effective: " << have
             << " (LOCKSTEP_REQUIRE_ALL=1 forbids skipping " << b->name << ")";
    }
    GTEST_SKIP() << "needs " << missing << "; effective: " << have;
  }
}

void BackendScope::enter_driver(const Backend* b) {
  backend_ = b;
  calls_at_enter_ = b->calls.load();
  excluded_calls_ = 0;
  if (!b->broken.empty()) FAIL() << b->name << ": " << b->broken;
}

void BackendScope::leave() const {
  // A failed or skipped test has said what it has to say.
  if (testing::Test::IsSkipped() || testing::Test::HasFailure()) return;
  const uint64_t calls = backend_->calls.load() - calls_at_enter_ - excluded_calls_;
  EXPECT_GT(calls, 0u) << backend_->name
                       << ": the test never called into the backend it is named after";
}

void warn(const std::string& text) {
  std::printf("[ WARNING  ] %s\n", text.c_str());
  static std::string test_warned;  // the test that has its warning recorded
  const testing::TestInfo* t = testing::UnitTest::GetInstance()->current_test_info();
  const std::string test = t ? std::string(t->test_suite_name()) + "." + t->name() : "";
  if (test == test_warned) return;
  test_warned = test;
  testing::Test::RecordProperty("lockstep_warning", text);
}

void note(const std::string& text) {
  std::printf("[ NOTE     ] %s\n", text.c_str());
  testing::Test::RecordProperty("lockstep_note", text);
}

void skip_not_applicable(const std::string& why) { skip_with_reason("not applicable: " + why); }

void skip_with_reason(const std::string& why) {
  // In the report as a property; in the log too, for `lockstep run` to read
  // where the process dies later and leaves no report.
  std::printf("[ SKIP WHY ] %s\n", why.c_str());
  testing::Test::RecordProperty("skip_reason", why);
  GTEST_SKIP_("");
}

void BackendTest::SetUp() {
  seed_ = test_seed();
  rng_ = Rng(seed_);
  scope_.enter(backend());
}

void BackendTest::TearDown() { scope_.leave(); }

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
  if (generic() == backend()) scope_.exclude(generic()->calls.load() - before);
  return out;
}

Bytes BackendTest::expected_hmac(std::span<const uint8_t> key, std::span<const uint8_t> msg) {
  const uint64_t before = generic()->calls.load();
  Bytes out = conformance::expected_hmac(alg(), key, msg);
  if (generic() == backend()) scope_.exclude(generic()->calls.load() - before);
  return out;
}

Bytes BackendTest::generic_digest(std::span<const uint8_t> msg) {
  const uint64_t before = generic()->calls.load();
  Bytes out(digest_size());
  alg().digest(msg.data(), msg.size(), out.data(), generic());
  if (generic() == backend()) scope_.exclude(generic()->calls.load() - before);
  return out;
}

void PrintTo(const CipherParam& p, std::ostream* os) {
  *os << p.alg->name << " via " << p.backend->name;
}

std::string CipherParamName::operator()(const testing::TestParamInfo<CipherParam>& info) const {
  return param_name(*info.param.alg, *info.param.backend);
}

std::string CipherTest::label() const {
  return std::string(alg().name) + " via " + std::string(backend()->name);
}

void CipherTest::SetUp() {
  rng_ = Rng(test_seed());
  scope_.enter(backend());
  if (IsSkipped() || HasFatalFailure()) return;
  if (const std::string why = alg().unsupported(backend()); !why.empty()) GTEST_SKIP() << why;
}

void CipherTest::TearDown() { scope_.leave(); }

std::array<uint32_t, 16> CipherTest::crypt(std::span<const uint8_t> key, uint32_t counter,
                                           std::span<const uint8_t> nonce, uint8_t* dst,
                                           const uint8_t* src, size_t len) const {
  std::array<uint32_t, 16> state;
  alg().init(state.data(), key.data(), counter, nonce.data());
  alg().crypt(state.data(), dst, src, len, backend());
  return state;
}

Bytes CipherTest::expected(std::span<const uint8_t> key, uint32_t counter,
                           std::span<const uint8_t> nonce, std::span<const uint8_t> msg) {
  const uint64_t before = generic()->calls.load();
  // A backend is held to the counter semantics it declared.
  Bytes out = alg().carries(backend()) ? expected_chacha_carrying(alg(), key, counter, nonce, msg)
                                       : expected_chacha(alg(), key, counter, nonce, msg);
  if (generic() == backend()) scope_.exclude(generic()->calls.load() - before);
  return out;
}

}  // namespace lockstep::conformance
