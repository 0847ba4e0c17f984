// `lockstep bench`: runs lockstep_bench (bench/) with JSON output, keeps the
// JSON, and renders it (bench_report.h): Markdown tables to stdout and
// bench.md, one SVG chart per algorithm, and the speed targets,
// which are reported and never decide the exit status.
//
// Every file is written beside its final name and renamed into place only
// when the whole run succeeded, so a failed run (a bad --filter, one that
// matches nothing, a benchmark that crashed) leaves the previous results as
// they were.
#include <spawn.h>
#include <unistd.h>
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

// Staged: files written under temporary names, renamed into place by
// commit(), removed by the destructor if commit() never ran.
class Staged {
 public:
  explicit Staged(fs::path dir) : dir_(std::move(dir)) {}
  ~Staged() {
    std::error_code ec;
    for (const auto& [tmp, final_name] : files_) fs::remove(tmp, ec);
  }
  Staged(const Staged&) = delete;
  Staged& operator=(const Staged&) = delete;

  // path is where to write what will become dir/name.
  fs::path path(const std::string& name) {
    const fs::path tmp = dir_ / fmt::format(".{}.tmp-{}", name, getpid());
    files_.emplace_back(tmp, dir_ / name);
    return tmp;
  }
  bool commit(std::string& written) {
    bool ok = true;
    for (const auto& [tmp, final_name] : files_) {
      std::error_code ec;
      fs::rename(tmp, final_name, ec);
      if (ec) {
        fmt::print(stderr, "lockstep bench: cannot replace {}: {}\n", final_name.string(), ec.message());
        ok = false;
        continue;
      }
      written += (written.empty() ? "" : " ") + final_name.string();
    }
    files_.clear();
    return ok;
  }

 private:
  fs::path dir_;
  std::vector<std::pair<fs::path, fs::path>> files_;  // temporary, final
};

}  // namespace

int cmd_bench(const BenchOptions& o) {
  const fs::path out_dir = o.out.empty() ? fs::path(LOCKSTEP_BUILD_DIR) / "bench" : fs::path(o.out);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    fmt::print(stderr, "lockstep bench: cannot create {}: {}\n", out_dir.string(), ec.message());
    return 1;
  }

  Staged staged(out_dir);
  fs::path json_path = o.from;
  if (json_path.empty()) {
    const fs::path binary = LOCKSTEP_BENCH_BINARY;
    if (binary.empty() || !fs::exists(binary)) {
      fmt::print(stderr, "lockstep bench: lockstep_bench is not built{}: it needs Google Benchmark "
                         "(Debian libbenchmark-dev, which ci/install-deps installs) at configure time\n",
                 binary.empty() ? "" : " (" + binary.string() + " is missing)");
      return 1;
    }
    json_path = staged.path("bench.json");
    std::vector<std::string> argv = {
        binary.string(), "--benchmark_out=" + json_path.string(), "--benchmark_out_format=json",
        // The flag's spelling depends on the library's version (Dependencies.cmake).
        fmt::format("--benchmark_min_time={}{}", o.min_time, LOCKSTEP_BENCH_SECONDS_SUFFIX)};
    if (!o.filter.empty()) argv.push_back("--benchmark_filter=" + o.filter);
    fmt::print(stderr, "lockstep bench: running {} (results: {})\n", binary.string(),
               (out_dir / "bench.json").string());
    if (const int status = run_bench(argv); status != 0) {
      fmt::print(stderr, "lockstep bench: lockstep_bench exited with status {}\n", status);
      return 1;
    }
  }

  const std::string shown = o.from.empty() ? (out_dir / "bench.json").string() : o.from;
  bench_report::Results results;
  try {
    // lockstep_bench writes nothing at all, and exits 0, when the filter
    // matches nothing or is no regex (it says which on stderr).
    std::error_code size_ec;
    if (o.from.empty() && fs::file_size(json_path, size_ec) == 0 && !size_ec) {
      fmt::print(stderr, "lockstep bench: no benchmark matches --filter '{}'; nothing written\n", o.filter);
      return 1;
    }
    std::ifstream in(json_path);
    if (!in) throw std::runtime_error("cannot open it");
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.is_object() && j.contains("benchmarks") && j["benchmarks"].is_array() && j["benchmarks"].empty()) {
      if (o.from.empty())
        fmt::print(stderr, "lockstep bench: no benchmark matches --filter '{}'; nothing written\n", o.filter);
      else
        fmt::print(stderr, "lockstep bench: {}: no benchmark in it; nothing written\n", shown);
      return 1;
    }
    results = bench_report::parse(j);
  } catch (const std::exception& e) {
    fmt::print(stderr, "lockstep bench: {}: {}\n", shown, e.what());
    return 1;
  }

  const std::string md = bench_report::markdown(results);
  bool ok = write_file(staged.path("bench.md"), md);
  for (const bench_report::Algorithm& a : results.algorithms)
    ok = write_file(staged.path("bench-" + a.name + ".svg"), bench_report::svg(a, results)) && ok;
  if (!ok) return 1;
  fmt::print("{}", md);
  std::string written;
  ok = staged.commit(written);
  fmt::print(stderr, "lockstep bench: wrote {}\n", written);
  return ok ? 0 : 1;
}

}  // namespace lockstep::cli
