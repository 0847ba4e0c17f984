// `lockstep bench`: runs lockstep_bench (bench/) with JSON output, keeps the
// JSON, and renders it (report.h): Markdown tables to stdout and
// bench.md, one SVG chart per algorithm, and the speed targets,
// which are reported and never decide the exit status. --module files and
// the modules of --tree's trees (trees.h) run beside lockstep's own.
// --analyze writes analyze.md instead (analyze.h): its run measures
// two lengths only, so it leaves bench.json and bench.md as they were.
//
// Every file is written beside its final name and renamed into place only
// when the whole run succeeded, so a failed run (a bad --filter, one that
// matches nothing, a benchmark that crashed) leaves the previous results as
// they were.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "bench/analyze.h"
#include "bench_report/report.h"
#include "bench_report/run.h"
#include "bench/trees.h"
#include "commands.h"
#include "env_features.h"
#include "modules.h"
#include "output_paths.h"
#include "process.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

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

// The options that conflict, and --analyze's analyser (found into mca):
// usage errors (2) before anything is built or run.
int check_options(const BenchOptions& o, [[maybe_unused]] std::string& mca) {
  if (!o.trees.empty() && !o.from.empty()) {
    fmt::print(stderr, "lockstep bench: --tree builds modules to run, --from runs nothing: give one of them\n");
    return 2;
  }
  if (!o.analyze) return 0;
  if (!o.trees.empty() || !o.filter.empty()) {
    fmt::print(stderr, "lockstep bench: --analyze runs the backends it analyses; --filter and --tree are for "
                       "the full report\n");
    return 2;
  }
#if LOCKSTEP_ANALYZE
  mca = find_program(std::string(kAnalyzer));
  if (mca.empty()) {
    fmt::print(stderr, "lockstep bench: --analyze needs {} (LLVM's machine-code analyser), not found in PATH: "
                       "install the Debian package llvm-19\n", kAnalyzer);
    return 2;
  }
  return 0;
#else
  fmt::print(stderr, "lockstep bench: this build has no --analyze: it needs an x86-64 build with Zydis and "
                     "libelf (Debian libzydis-dev, libelf-dev)\n");
  return 2;
#endif
}

// The modules to run and the environment to run them in, checked, then
// the results folder made.
int prepare_modules(const BenchOptions& o, const std::vector<std::string>& modules, const fs::path& out_dir) {
  // The trees before anything runs: a wrong one is a usage error (2).
  std::vector<std::string> files = modules;
  if (const int rc = bench_tree_modules(o.trees, files); rc != 0) return rc;
  if (const int rc = route_modules(files, "bench"); rc != 0) return rc;
  // lockstep_bench is a child: the mask it inherits must run there too.
  if (const int rc = check_env_features({Environment{.id = "native"}}, "lockstep bench"); rc != 0) return rc;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    fmt::print(stderr, "lockstep bench: cannot create {}: {}\n", out_dir.string(), ec.message());
    return 1;
  }
  return 0;
}

// The results: measured now (their JSON staged), or read from --from.
std::optional<bench_report::Results> results_of(const BenchOptions& o, const fs::path& out_dir, Staged& staged) {
  if (!o.from.empty())
    return read_results(o.from, o.from, o.from + ": no benchmark in it; nothing written", "lockstep bench");
  const std::string json = o.analyze ? "analyze.json" : "bench.json";
  std::string filter = o.filter;
#if LOCKSTEP_ANALYZE
  if (o.analyze) filter = analyze_filter();
#endif
  fmt::print(stderr, "lockstep bench: results: {}\n", (out_dir / json).string());
  return measure({.filter = filter, .min_time = o.min_time, .json = staged.path(json)});
}

// The files staged, renamed into place, and said; 1 if one could not be.
int commit_staged(Staged& staged) {
  std::string written;
  const bool ok = staged.commit(written);
  fmt::print(stderr, "lockstep bench: wrote {}\n", written);
  return ok ? 0 : 1;
}

// The full report: bench.md, printed too, and a chart per algorithm.
int write_report(const bench_report::Results& results, Staged& staged) {
  const std::string md = bench_report::markdown(results);
  bool ok = write_file(staged.path("bench.md"), md);
  for (const bench_report::Algorithm& a : results.algorithms)
    ok = write_file(staged.path("bench-" + a.name + ".svg"), bench_report::svg(a, results)) && ok;
  if (!ok) return 1;
  fmt::print("{}", md);
  return commit_staged(staged);
}

}  // namespace

int cmd_bench(const BenchOptions& o, const std::vector<std::string>& modules) {
  std::string mca;
  if (const int rc = check_options(o, mca); rc != 0) return rc;
  const fs::path out_dir = o.out.empty() ? fs::path(LOCKSTEP_BUILD_DIR) / "bench" : fs::path(o.out);
  if (const std::string problem = output_dir_problem(out_dir.string()); !problem.empty()) {
    fmt::print(stderr, "lockstep bench: {} {}: {}\n", o.out.empty() ? "the results folder" : "--out",
               out_dir.string(), problem);
    return 2;
  }
  if (const int rc = prepare_modules(o, modules, out_dir); rc != 0) return rc;

  Staged staged(out_dir);
  const std::optional<bench_report::Results> results = results_of(o, out_dir, staged);
  if (!results) return 1;

#if LOCKSTEP_ANALYZE
  if (o.analyze) {
    const std::string md = analyze_report(*results, mca, analyzed_binary());
    if (!write_file(staged.path("analyze.md"), md)) return 1;
    fmt::print("{}", md);
    return commit_staged(staged);
  }
#endif
  return write_report(*results, staged);
}

}  // namespace lockstep::cli
