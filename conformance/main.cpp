// conformance_tests: GoogleTest's main, plus the report every lockstep run
// starts with (features detected and effective, and the backend each family
// selected), so that a log says which code actually ran.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "call_log.h"
#include "catalog.h"
#include "crash/crash_report.h"
#include "describe.h"
#include "env_check.h"
#include "rng.h"
#include "vectors/vector_file.h"

namespace {

void print_report() {
  std::printf("%s", lockstep::cpu::report().c_str());
  for (const lockstep::catalog::Family* f : lockstep::catalog::families()) {
    std::printf("%.*s: default %.*s; compiled:", static_cast<int>(f->name.size()), f->name.data(),
                static_cast<int>(f->default_backend()->name.size()),
                f->default_backend()->name.data());
    for (const lockstep::Backend* b : f->backends())
      std::printf(" %.*s%s", static_cast<int>(b->name.size()), b->name.data(),
                  b->usable(lockstep::cpu::effective()) ? "" : " (unusable)");
    std::printf("\n");
  }
  std::printf("seed: 0x%llx (LOCKSTEP_SEED)\n",
              static_cast<unsigned long long>(lockstep::conformance::base_seed()));
  std::fflush(stdout);
}

// LOCKSTEP_DESCRIBE=<file>: write describe() there first, for `lockstep run`.
bool write_description() {
  const char* path = std::getenv("LOCKSTEP_DESCRIBE");
  if (!path || !*path) return true;
  std::ofstream out(path);
  out << lockstep::conformance::describe().dump(2) << "\n";
  if (!out) {
    std::fprintf(stderr, "conformance_tests: cannot write LOCKSTEP_DESCRIBE=%s\n", path);
    return false;
  }
  return true;
}

// CheckNamer tells the fault report which test is running.
class CheckNamer : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo& t) override {
    std::string name = std::string(t.test_suite_name()) + "." + t.name();
    if (t.value_param()) name += std::string(" (") + t.value_param() + ")";
    lockstep::crash::set_check(name);
  }
  void OnTestEnd(const testing::TestInfo&) override { lockstep::crash::set_check(""); }
};

// SkipReasons records the message of a plain GTEST_SKIP() << "why" as the
// test's skip_reason, as skip_with_reason() does, so that the report says
// why every skipped test skipped (GoogleTest's JSON keeps no skip message).
// It records at the test's end: recording while GoogleTest reports the skip
// deadlocks on its lock.
class SkipReasons : public testing::EmptyTestEventListener {
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (r.skipped() && r.message() != nullptr && why_.empty()) why_ = r.message();
  }
  void OnTestEnd(const testing::TestInfo& t) override {
    const std::string why = std::move(why_);
    why_.clear();
    if (why.empty() || !t.result()->Skipped()) return;
    const testing::TestResult& result = *t.result();
    for (int i = 0; i < result.test_property_count(); ++i)
      if (std::string(result.GetTestProperty(i).key()) == "skip_reason") return;
    testing::Test::RecordProperty("skip_reason", why);
  }
  std::string why_;
};

}  // namespace

int main(int argc, char** argv) {
  // Line by line into a log too: `lockstep run` counts finished tests there.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  testing::InitGoogleTest(&argc, argv);
  // The dispatch and call-count checks read each backend's calls.
  lockstep::Backend::counting_calls().store(true);
  if (!lockstep::conformance::check_environment()) return 2;
  // gtest_discover_tests parses the test list from stdout: keep it clean.
  if (!GTEST_FLAG_GET(list_tests)) print_report();
  if (!write_description()) return 2;
  // A fault in a backend names the test, its case and the guard page hit.
  lockstep::crash::install("conformance_tests");
  testing::UnitTest::GetInstance()->listeners().Append(new CheckNamer);
  testing::UnitTest::GetInstance()->listeners().Append(new SkipReasons);
  // LOCKSTEP_CALLS: each test's calls into each backend, for `lockstep run`.
  if (auto* calls = lockstep::conformance::call_log_from_environment())
    testing::UnitTest::GetInstance()->listeners().Append(calls);
  return RUN_ALL_TESTS();
}
