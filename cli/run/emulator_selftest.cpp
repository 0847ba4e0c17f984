#include "run/emulator_selftest.h"

#include <unistd.h>

#include <fmt/format.h>

#include "run/gtest_results.h"
#include "process.h"

namespace lockstep::cli {

Cell run_emulator_selftest(const Environment& env, const std::filesystem::path& out) {
  const std::filesystem::path binary = env.build / env.selftest;
  if (access(binary.c_str(), X_OK) != 0)
    return {Status::kSkip, fmt::format("no self-test binary at {}", binary.string())};
  const std::string log = (out / "emulator-selftest.log").string();
  const SuiteRun run = run_gtest({binary.string()}, {}, env.vars, (out / "emulator-selftest.json").string(), log);
  int passed = 0, failed = 0, skipped = 0;
  std::string first;
  for (const TestOutcome& t : run.tests) {
    if (t.result == TestOutcome::kFailed && failed++ == 0) first = t.suite + "." + t.name;
    if (t.result == TestOutcome::kSkipped) ++skipped;
    if (t.result == TestOutcome::kPassed) ++passed;
  }
  Cell c;
  if (failed)
    c = {Status::kFail, fmt::format("{} self-test: {} of {} failed, first {}; see {}", env.selftest.filename().string(),
                                    failed, failed + passed + skipped, first, log)};
  else if (!run.error.empty() || run.exit_status != 0 || passed == 0)
    c = {Status::kFail, fmt::format("{} self-test did not finish ({}); see {}", env.selftest.filename().string(),
                                    run.error.empty() ? fmt::format("exit status {}", run.exit_status) : run.error,
                                    log)};
  else
    c = {Status::kPass, fmt::format("{} passed, {} skipped", passed, skipped)};
  c.reproduce = command_line(env.vars, {binary.string()});
  return c;
}

Cell under_failed_selftest(const Cell& own, const Cell& selftest) {
  Cell c = own;
  c.status = Status::kFail;
  c.detail = fmt::format("the emulator failed its self-test ({}); this cell alone said {}: {}", selftest.detail,
                         status_name(own.status), own.detail);
  c.reproduce = selftest.reproduce;
  return c;
}

}  // namespace lockstep::cli
