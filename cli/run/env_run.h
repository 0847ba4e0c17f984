// What `lockstep run` keeps of one environment while it runs: the rows and
// tests its planning chose (plan.h), the shards and fuzz cells its tasks
// fill in (shard.h, fuzz_cell.h), and the report tabulation makes of them
// (tabulate.h). The runner (runner.h) owns one per environment.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "environments.h"
#include "run/gtest_results.h"
#include "run/matrix.h"
#include "run/run_reports.h"

namespace lockstep::cli {

using RunClock = std::chrono::steady_clock;

// A row as the environment's own conformance_tests described it.
struct Row {
  RowKey key;
  std::string test_name;  // "sha224_x86_shani"
  bool usable = false;
  std::string missing;  // features it lacks there
  std::string declined;  // why the backend runs none of this algorithm, or ""
  std::string broken;    // how its module found it broken here (every cell FAILs), or ""
  std::string driver_only;  // why only its whole-message driver's tests apply (fuzz among the rest), or ""
  std::string elsewhere;  // the model of this emulator where the row runs instead (row_placement.h), or ""
};

// One process of an environment's conformance tests.
struct Shard {
  std::vector<std::string> tests;  // full names
  std::filesystem::path log, json, calls;
  SuiteRun run;
  bool done = false;
};

struct EnvRun {
  const Environment* env = nullptr;
  std::filesystem::path out;
  std::mutex m;
  nlohmann::json description;
  std::vector<Row> rows;
  std::vector<std::unique_ptr<Shard>> shards;
  std::map<std::string, Cell> fuzz;  // backend -> its fuzz cell
  std::string emulator_version;
  std::optional<Cell> selftest;  // the trap emulator's, where the environment has one
  int kunit_suites = 0;          // how many KUnit suites its kunit.ktap holds
  std::atomic<int> pending{0};
  std::atomic<int> tests_total{0}, fuzz_total{0}, fuzz_done{0};
  std::atomic<int> phase{0};  // 0 queued, 1 described, 2 done
  std::atomic<int> active{0};  // tasks running now
  RunClock::time_point start;
  EnvReport report;
};

// conformance_argv is the command that runs the environment's suite.
std::vector<std::string> conformance_argv(const Environment& env);

// unavailable_status is what a check that cannot run here is: SKIP, but
// FAIL on a machine meant to cover everything (LOCKSTEP_REQUIRE_ALL=1).
inline Status unavailable_status() {
  const char* all = std::getenv("LOCKSTEP_REQUIRE_ALL");
  return all && std::string(all) == "1" ? Status::kFail : Status::kSkip;
}

}  // namespace lockstep::cli
