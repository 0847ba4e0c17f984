// Runs a GoogleTest binary and reads its JSON report, so that the matrix is
// built from what the suites themselves decided.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lockstep::cli {

struct TestOutcome {
  std::string suite;  // "All/HashConformance"
  std::string name;   // "AllLensUpTo4096/sha256_x86_shani"
  enum { kPassed, kFailed, kSkipped } result = kPassed;
  std::string failure;  // first failure message, if any
  std::string skip_reason;  // from the test's "skip_reason" property
  std::string warning;      // from its "lockstep_warning" property: a WARN
  double seconds = 0;       // how long it ran, as its report says
  std::string note = {};    // from its "lockstep_note" property: said on a PASS
  std::string ktap = {};    // from its "lockstep_ktap" property: a KUnit suite's KTAP
};

struct SuiteRun {
  int exit_status = 0;   // as from waitpid: >= 0 exit code, < 0 -signal
  std::string error;     // the binary did not run or wrote no report
  std::vector<TestOutcome> tests;
};

// run_gtest runs `command` (a launcher such as qemu, if any, then the test
// binary) with `args` and `env` added to the environment, its output to
// `log_path`, and parses the report it writes to `json_path`.
SuiteRun run_gtest(const std::vector<std::string>& command, const std::vector<std::string>& args,
                   const std::vector<std::pair<std::string, std::string>>& env,
                   const std::string& json_path, const std::string& log_path);

}  // namespace lockstep::cli
