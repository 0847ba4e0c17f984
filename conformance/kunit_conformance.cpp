// The kunit column. A backend whose module has a tree's own KUnit suite
// built in (module.h's kunit: lib/crypto/tests/sha256_kunit.c over the
// tree's library front end) runs it whole, here, in this environment's CPU:
// what a kernel developer gets from one kunit.py boot per configuration, in
// every environment lockstep has. Each case is a PASS, a FAIL with its log
// (the suite's own expectations), or a SKIP with its reason; the suite's KTAP
// goes to the run's kunit.ktap (the lockstep_ktap property), which the
// kernel's own kunit_parser.py reads. A row without a suite is a SKIP.
#include <string>
#include <vector>

#include "backend_fixture.h"

namespace lockstep::conformance {
namespace {

struct CaseResult {
  std::string name, log;
  int status;
};

struct SuiteResult {
  std::string ktap;
  std::vector<CaseResult> cases;
};

void on_line(void* arg, const char* text) {
  auto* r = static_cast<SuiteResult*>(arg);
  r->ktap += text;
  r->ktap += '\n';
}

void on_result(void* arg, const char* name, int status, const char* log) {
  static_cast<SuiteResult*>(arg)->cases.push_back({name, log ? log : "", status});
}

// run_suite runs `s` for `b`, records its KTAP, and fails, skips or notes.
void run_suite(const Backend& b, const lockstep_kunit_suite& s) {
  SuiteResult r;
  b.count_call();
  const int status = s.run(&s, 1, on_line, on_result, &r);
  testing::Test::RecordProperty("lockstep_ktap", r.ktap);
  int counts[3] = {0, 0, 0};
  std::string skipped;
  for (const CaseResult& c : r.cases) {
    if (c.status < 0 || c.status > 2) {
      ADD_FAILURE() << s.name << "." << c.name << ": status " << c.status << " is not a lockstep_kunit_status";
      continue;
    }
    ++counts[c.status];
    if (c.status == LOCKSTEP_KUNIT_FAIL)
      ADD_FAILURE() << "KUnit case " << s.name << "." << c.name << " (" << s.file << ") failed through " << b.name
                    << ":\n" << c.log;
    if (c.status == LOCKSTEP_KUNIT_SKIP) skipped += (skipped.empty() ? "" : "; ") + c.name + ": " + c.log;
  }
  if (status == LOCKSTEP_KUNIT_FAIL && counts[LOCKSTEP_KUNIT_FAIL] == 0)
    ADD_FAILURE() << "KUnit suite " << s.name << " (" << s.file << ") failed outside its cases (its suite_init)";
  if (r.cases.empty()) ADD_FAILURE() << "KUnit suite " << s.name << " (" << s.file << ") has no cases";
  const std::string summary = "KUnit suite " + std::string(s.name) + " (" + s.file + "): " +
                              std::to_string(counts[0]) + " passed, " + std::to_string(counts[1]) + " failed, " +
                              std::to_string(counts[2]) + " skipped" + (skipped.empty() ? "" : " (" + skipped + ")");
  if (counts[0] == 0 && counts[1] == 0 && status != LOCKSTEP_KUNIT_FAIL) GTEST_SKIP() << summary;
  note(summary);
}

class HashKunit : public BackendTest {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HashKunit);
INSTANTIATE_TEST_SUITE_P(All, HashKunit, testing::ValuesIn(hash_params()), HashParamName());

class CipherKunit : public CipherTest {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CipherKunit);
INSTANTIATE_TEST_SUITE_P(All, CipherKunit, testing::ValuesIn(cipher_params()), CipherParamName());

}  // namespace

// Test the backend through the tree's own KUnit suite for its algorithm.
TEST_P(HashKunit, TreeSuite) {
  if (backend()->kunit == nullptr)
    return skip_not_applicable("no KUnit suite: only a tree's library front end with its KUnit files has one");
  run_suite(*backend(), *backend()->kunit);
}

TEST_P(CipherKunit, TreeSuite) {
  if (backend()->kunit == nullptr)
    return skip_not_applicable("no KUnit suite: only a tree's library front end with its KUnit files has one");
  run_suite(*backend(), *backend()->kunit);
}

}  // namespace lockstep::conformance
