// lockstep_bench as a child process, and its JSON as Results.
#include "bench_report/run.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// spawn runs `argv` with its standard output on our standard error: the
// benchmark's console lines are progress, while stdout carries the tables.
int spawn_bench(const std::vector<std::string>& argv, const char* who) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, 2, 1);
  pid_t pid;
  const int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    fmt::print(stderr, "{}: cannot run {}: {}\n", who, argv[0], std::strerror(rc));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

std::optional<bench_report::Results> read_results(const fs::path& json, const std::string& shown,
                                                  const std::string& empty, const char* who) {
  try {
    std::ifstream in(json);
    if (!in) throw std::runtime_error("cannot open it");
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.is_object() && j.contains("benchmarks") && j["benchmarks"].is_array() && j["benchmarks"].empty()) {
      fmt::print(stderr, "{}: {}\n", who, empty);
      return std::nullopt;
    }
    return bench_report::parse(j);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}: {}\n", who, shown, e.what());
    return std::nullopt;
  }
}

std::optional<bench_report::Results> measure(const BenchRun& run) {
  const fs::path binary = LOCKSTEP_BENCH_BINARY;
  if (binary.empty() || !fs::exists(binary)) {
    fmt::print(stderr, "{}: lockstep_bench is not built{}: it needs Google Benchmark "
                       "(Debian libbenchmark-dev, which ci/install-deps installs) at configure time\n",
               run.who, binary.empty() ? "" : " (" + binary.string() + " is missing)");
    return std::nullopt;
  }
  std::vector<std::string> argv = {
      binary.string(), "--benchmark_out=" + run.json.string(), "--benchmark_out_format=json",
      // The flag's spelling depends on the library's version (Dependencies.cmake).
      fmt::format("--benchmark_min_time={}{}", run.min_time, LOCKSTEP_BENCH_SECONDS_SUFFIX)};
  if (!run.filter.empty()) argv.push_back("--benchmark_filter=" + run.filter);
  fmt::print(stderr, "{}: running {}\n", run.who, binary.string());
  if (const int status = spawn_bench(argv, run.who); status != 0) {
    fmt::print(stderr, "{}: lockstep_bench exited with status {}\n", run.who, status);
    return std::nullopt;
  }
  // lockstep_bench writes nothing at all, and exits 0, when the filter
  // matches nothing or is no regex (it says which on stderr).
  const std::string nothing = fmt::format("no benchmark matches --filter '{}'; nothing written", run.filter);
  std::error_code ec;
  if (fs::file_size(run.json, ec) == 0 && !ec) {
    fmt::print(stderr, "{}: {}\n", run.who, nothing);
    return std::nullopt;
  }
  return read_results(run.json, run.json.string(), nothing, run.who);
}

}  // namespace lockstep::cli
