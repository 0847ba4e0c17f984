// Running lockstep_bench (bench/) and reading what it measured: the one way
// `lockstep bench` and `lockstep tree --series` (its before/after table)
// get their numbers.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "bench_report/report.h"

namespace lockstep::cli {

struct BenchRun {
  std::string filter;     // Google Benchmark regex; empty: everything
  double min_time = 0.1;  // seconds per benchmark
  std::filesystem::path json;  // where lockstep_bench writes its JSON
  const char* who = "lockstep bench";  // the command, for messages
};

// measure runs lockstep_bench (its console lines on our stderr, as
// progress) and parses the JSON it wrote. On any failure (not built, a
// crash, a filter that matches nothing) it says why, naming `who`, and
// returns nothing.
std::optional<bench_report::Results> measure(const BenchRun& run);

// read_results parses a JSON file lockstep_bench wrote; `shown` names it in
// messages, `empty` is what to say when it holds no benchmark.
std::optional<bench_report::Results> read_results(const std::filesystem::path& json, const std::string& shown,
                                                  const std::string& empty, const char* who);

}  // namespace lockstep::cli
