// BackendTest: the fixture behind every per-backend suite. It skips a
// backend the CPU lacks (or fails under LOCKSTEP_REQUIRE_ALL=1), and fails a
// test that never called into the backend it is named after (Highway's
// TearDown rule: a pass must prove that the code it names ran).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "bytes.h"
#include "crash/crash_report.h"
#include "params.h"
#include "reference.h"
#include "rng.h"

namespace lockstep::conformance {

// CaseTrace is SCOPED_TRACE that the fault report (crash/crash_report.h)
// prints too: a backend that faults inside the scope dies naming the case.
// Write CASE_TRACE(testing::Message() << "len=" << len) before the calls.
class CaseTrace {
 public:
  template <class T>
  CaseTrace(const char* file, int line, const T& what)
      : text_((testing::Message() << what).GetString()), note_(text_), trace_(file, line, text_) {}

 private:
  std::string text_;
  crash::CaseNote note_;
  testing::ScopedTrace trace_;
};
#define LOCKSTEP_CASE_CAT2(a, b) a##b
#define LOCKSTEP_CASE_CAT(a, b) LOCKSTEP_CASE_CAT2(a, b)
#define CASE_TRACE(what) \
  const ::lockstep::conformance::CaseTrace LOCKSTEP_CASE_CAT(case_trace_, __LINE__)(__FILE__, __LINE__, what)

// same_bytes: `got` equals `want`, or a failure that says where they
// differ (describe_mismatch), whatever their length.
inline testing::AssertionResult same_bytes(std::span<const uint8_t> got, std::span<const uint8_t> want) {
  if (std::equal(got.begin(), got.end(), want.begin(), want.end())) return testing::AssertionSuccess();
  return testing::AssertionFailure() << describe_mismatch(got, want);
}

void PrintTo(const HashParam& p, std::ostream* os);

// warn records the running test's first warning for the matrix (a WARN
// cell, never a failure) and prints every one to the log.
void warn(const std::string& text);

// note records a word on the running test's PASS for the matrix cell (a
// check that ran in a reduced form says how), and prints it to the log.
void note(const std::string& text);

// skip_not_applicable skips the running test as a check that does not
// apply to its row (the matrix shows the reason; coverage does not hold
// the SKIP against the backend). Call as `return skip_not_applicable(...)`.
void skip_not_applicable(const std::string& why);
// module_declines says whether `b` is a module's backend that its module
// cannot run here (unavailable: the test is a SKIP with the module's
// reason) or found broken (a FAIL with its words); the caller then returns
// without calling it. BackendScope does this for the fixtures; the suites
// without one ask.
bool module_declines(const Backend& b);

// skip_with_reason skips it as a check that cannot run here, `why` being
// the cell's reason. Call as `return skip_with_reason(...)`.
void skip_with_reason(const std::string& why);

// HashParamName is the GoogleTest name generator: param_name() of the pair.
struct HashParamName {
  std::string operator()(const testing::TestParamInfo<HashParam>& info) const;
};

// require_all says whether LOCKSTEP_REQUIRE_ALL=1 turns skips into failures.
bool require_all();

// BackendScope holds what every per-backend fixture does, whatever its
// parameter: enter() skips a backend the CPU lacks (GTEST_SKIP, or FAIL
// under LOCKSTEP_REQUIRE_ALL=1), leave() fails a passing test that never
// called into the backend. Calls made only to compute expected values are
// excluded().
class BackendScope {
 public:
  void enter(const Backend* b);
  // enter_driver is enter() for a test that calls the backend's
  // whole-message cipher driver, the one way into a backend that has only
  // that (its unavailable says so for every other test).
  void enter_driver(const Backend* b);
  void leave() const;
  void exclude(uint64_t calls) { excluded_calls_ += calls; }
  const Backend* backend() const { return backend_; }

 private:
  const Backend* backend_ = nullptr;
  uint64_t calls_at_enter_ = 0;
  uint64_t excluded_calls_ = 0;
};

class BackendTest : public testing::TestWithParam<HashParam> {
 protected:
  void SetUp() override;
  void TearDown() override;

  const catalog::HashAlgorithm& alg() const { return *GetParam().alg; }
  const Backend* backend() const { return GetParam().backend; }
  const Backend* generic() const { return generic_of(alg()); }
  size_t digest_size() const { return alg().digest_size; }
  size_t block_size() const { return alg().block_size; }
  // label is "sha224 via sha256/x86-shani", for messages.
  std::string label() const;

  // digest hashes `msg` in one shot through the backend under test.
  Bytes digest(std::span<const uint8_t> msg) const;
  // hmac computes HMAC with a raw key through the backend under test.
  Bytes hmac(std::span<const uint8_t> key, std::span<const uint8_t> msg) const;

  // expected_digest and expected_hmac are the answers of reference.h. When
  // they come from the generic backend and that is the backend under test,
  // the calls they make are not counted as evidence that the test
  // exercised it.
  Bytes expected_digest(std::span<const uint8_t> msg);
  Bytes expected_hmac(std::span<const uint8_t> key, std::span<const uint8_t> msg);
  // generic_digest always asks the generic backend (same call accounting).
  Bytes generic_digest(std::span<const uint8_t> msg);

  Rng& rng() { return rng_; }
  uint64_t seed() const { return seed_; }

 private:
  BackendScope scope_;
  uint64_t seed_ = 0;
  Rng rng_{0};
};

void PrintTo(const CipherParam& p, std::ostream* os);

struct CipherParamName {
  std::string operator()(const testing::TestParamInfo<CipherParam>& info) const;
};

// CipherTest is BackendTest for the ChaCha suites.
class CipherTest : public testing::TestWithParam<CipherParam> {
 protected:
  void SetUp() override;
  void TearDown() override;

  const catalog::CipherAlgorithm& alg() const { return *GetParam().alg; }
  const Backend* backend() const { return GetParam().backend; }
  const Backend* generic() const { return alg().family->backends().back(); }
  std::string label() const;

  // crypt runs the backend under test from a fresh state (key, counter,
  // nonce) over len bytes, returning the state words after the call.
  std::array<uint32_t, 16> crypt(std::span<const uint8_t> key, uint32_t counter,
                                 std::span<const uint8_t> nonce, uint8_t* dst, const uint8_t* src,
                                 size_t len) const;
  // expected is msg XOR keystream from the reference (reference.h); calls it
  // makes into the generic backend do not count as exercising it.
  Bytes expected(std::span<const uint8_t> key, uint32_t counter, std::span<const uint8_t> nonce,
                 std::span<const uint8_t> msg);

  Rng& rng() { return rng_; }

 private:
  BackendScope scope_;
  Rng rng_{0};
};

}  // namespace lockstep::conformance
