#include "run/fuzz_cell.h"

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "process.h"
#include "run/shard.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// What failed, from the harness's log: its first "lockstep: " line names the
// mismatch; under the sanitizers a fault is their report and exit status 1,
// not a signal.
std::string failure_of(const fs::path& log, int status) {
  std::ifstream in(log);
  std::string line, signature, sanitizer;
  while (std::getline(in, line)) {
    if (line.starts_with("lockstep: ")) {
      signature = line;
      break;
    }
    if (!sanitizer.empty()) continue;
    if (const size_t at = line.find("ERROR: AddressSanitizer: "); at != std::string::npos)
      sanitizer = line.substr(at + 7);
    else if (line.find(": runtime error: ") != std::string::npos)
      sanitizer = "UBSan: " + line;
  }
  const std::string how = status < 0            ? "crashed: " + how_it_died(status)
                          : !sanitizer.empty() ? "crashed: " + sanitizer
                                               : fmt::format("exit {}", status);
  return (signature.empty() ? how : signature) + "; see " + log.string();
}

Cell run_harness(const Environment& env, const std::string& backend, const std::string& harness,
                 const fs::path& out) {
  const std::string impl = backend.substr(backend.find('/') + 1);
  const fs::path log = out / ("fuzz-" + harness + "-" + impl + ".log");
  const fs::path corpus = fs::path(LOCKSTEP_SOURCE_DIR) / "fuzz" / "corpus" / harness;
  std::vector<std::string> argv = env.launcher;
  argv.push_back((env.build / "fuzz" / ("fuzz_" + harness + "_replay")).string());
  for (const std::string& a : {std::string("--runs"), std::to_string(env.fuzz_runs), std::string("--seed"),
                               std::string("1"), corpus.string()})
    argv.push_back(a);
  auto vars = env.vars;
  vars.emplace_back("LOCKSTEP_FUZZ_BACKEND", backend);
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult pr = run_process(argv, vars, log.string());
  Cell cell;
  if (!pr.error.empty()) {
    cell = {Status::kFail, pr.error};
  } else if (pr.status != 0) {
    cell = {Status::kFail, failure_of(log, pr.status)};
    cell.reproduce = command_line(vars, argv);
  } else {
    cell = {Status::kPass, fmt::format("corpus + {} random programs", env.fuzz_runs)};
  }
  cell.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return cell;
}

}  // namespace

Cell fuzz_cell(const Environment& env, const Row& row, const fs::path& out) {
  const std::string& backend = row.key.backend;
  const std::string family = backend.substr(0, backend.find('/'));
  const std::string harness = fuzz_harness_for(family);
  if (harness.empty()) return {Status::kFail, "no fuzz harness covers the " + family + " family"};
  if (!row.driver_only.empty()) return {Status::kSkip, row.driver_only};
  // As the suites do: a machine meant to cover everything may not skip.
  if (!row.usable) return {unavailable_status(), "needs " + row.missing};
  return run_harness(env, backend, harness, out);
}

}  // namespace lockstep::cli
