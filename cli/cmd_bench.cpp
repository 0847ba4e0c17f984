// `lockstep bench`: runs lockstep_bench (bench/) with JSON output, keeps the
// JSON, and renders it (bench_report.h): Markdown tables to stdout and
// bench.md, one SVG chart per algorithm, and the speed targets,
// which are reported and never decide the exit status.
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_report.h"
#include "commands.h"

extern char** environ;

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// run_bench runs `argv` with its standard output on our standard error: the
// benchmark's console lines are progress, while stdout carries the tables.
int run_bench(const std::vector<std::string>& argv) {
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
    fmt::print(stderr, "lockstep bench: cannot run {}: {}\n", argv[0], std::strerror(rc));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

bool write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) fmt::print(stderr, "lockstep bench: cannot write {}\n", path.string());
  return static_cast<bool>(out);
}

}  // namespace

int cmd_bench(const BenchOptions& o) {
  const fs::path out_dir = o.out.empty() ? fs::path(LOCKSTEP_BUILD_DIR) / "bench" : fs::path(o.out);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    fmt::print(stderr, "lockstep bench: cannot create {}: {}\n", out_dir.string(), ec.message());
    return 1;
  }

  fs::path json_path = o.from;
  if (json_path.empty()) {
    const fs::path binary = LOCKSTEP_BENCH_BINARY;
    if (binary.empty() || !fs::exists(binary)) {
      fmt::print(stderr, "lockstep bench: lockstep_bench is not built{}: it needs Google Benchmark "
                         "(Debian libbenchmark-dev, which ci/install-deps installs) at configure time\n",
                 binary.empty() ? "" : " (" + binary.string() + " is missing)");
      return 1;
    }
    json_path = out_dir / "bench.json";
    std::vector<std::string> argv = {
        binary.string(), "--benchmark_out=" + json_path.string(), "--benchmark_out_format=json",
        // The flag's spelling depends on the library's version (Dependencies.cmake).
        fmt::format("--benchmark_min_time={}{}", o.min_time, LOCKSTEP_BENCH_SECONDS_SUFFIX)};
    if (!o.filter.empty()) argv.push_back("--benchmark_filter=" + o.filter);
    fmt::print(stderr, "lockstep bench: running {} (results: {})\n", binary.string(), json_path.string());
    if (const int status = run_bench(argv); status != 0) {
      fmt::print(stderr, "lockstep bench: lockstep_bench exited with status {}\n", status);
      return 1;
    }
  }

  bench_report::Results results;
  try {
    std::ifstream in(json_path);
    if (!in) throw std::runtime_error("cannot open it");
    results = bench_report::parse(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    fmt::print(stderr, "lockstep bench: {}: {}\n", json_path.string(), e.what());
    return 1;
  }

  const std::string md = bench_report::markdown(results);
  fmt::print("{}", md);
  bool ok = write_file(out_dir / "bench.md", md);
  std::string written = (out_dir / "bench.md").string();
  for (const bench_report::Algorithm& a : results.algorithms) {
    const fs::path svg = out_dir / ("bench-" + a.name + ".svg");
    ok = write_file(svg, bench_report::svg(a, results)) && ok;
    written += " " + svg.string();
  }
  fmt::print(stderr, "lockstep bench: wrote {}\n", written);
  return ok ? 0 : 1;
}

}  // namespace lockstep::cli
