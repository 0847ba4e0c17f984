// `lockstep run`: every check this host can run, against every backend, in
// every environment it can reach (natively, under the trap emulators, under
// QEMU CPU models, under Intel SDE), as one matrix per environment.
//
// The suites decide; the run only schedules them and tabulates. This file
// is the command: its usage errors, the environments it selects, and what
// it writes and returns once the runner (runner.h) is done.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "catalog.h"
#include "commands.h"
#include "cpu/cpu.h"
#include "env_features.h"
#include "environments.h"
#include "modules.h"
#include "output_paths.h"
#include "process.h"
#include "progress.h"
#include "run/run_reports.h"
#include "run/run_select.h"
#include "run/runner.h"
#include "run/summary.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) fmt::print(stderr, "lockstep run: cannot write {}\n", path.string());
}

// A module given for another architecture whose environments the run does
// not select would silently never run: a usage error that says which
// environments would run it.
int check_module_reach(const Selection& sel) {
  const std::string native(cpu::arch_name(cpu::build_arch()));
  std::map<std::string, std::vector<std::string>> envs_of_arch;
  std::set<std::string> selected_archs;
  for (const auto& [id, arch] : environment_archs()) {
    envs_of_arch[arch].push_back(id);
    if (sel.env(id)) selected_archs.insert(arch);
  }
  for (const auto& [arch, ids] : envs_of_arch) {
    const std::string files = modules_for(arch);
    if (arch == native || files.empty() || selected_archs.contains(arch)) continue;
    std::string names;
    for (const std::string& id : ids) names += " " + id;
    fmt::print(stderr,
               "lockstep run: module {} is built for {}, and no environment the run selects runs {} code; "
               "these would:{}\n",
               files, arch, arch, names);
    return 2;
  }
  return 0;
}

// Every environment, with --build's suite in place of this build's. Returns
// 2 (having said why) when --build names no suite.
int all_environments(const RunOptions& o, std::vector<Environment>& envs) {
  envs = environments();
  if (o.build.empty()) return 0;
  // Checked first: every environment it replaces would fail alike.
  const fs::path suite = fs::absolute(o.build) / "conformance" / "conformance_tests";
  if (access(suite.c_str(), X_OK) != 0) {
    fmt::print(stderr, "lockstep run: --build {}: no conformance suite at {} ({})\n", o.build, suite.string(),
               std::strerror(errno));
    return 2;
  }
  for (Environment& e : envs)
    if (e.build == fs::path(LOCKSTEP_BUILD_DIR)) e.build = fs::absolute(o.build);
  return 0;
}

// The usage errors of --env and --family, before anything runs: 2, or 0.
int check_names_given(const RunOptions& o, const std::vector<std::string>& ids) {
  for (const std::string& p : o.envs)
    if (std::none_of(ids.begin(), ids.end(), [&](const std::string& id) { return glob_match(p, id); })) {
      std::string known;
      for (const std::string& id : ids) known += " " + id;
      // The kernel-glue environments exist only beside such a module.
      const bool no_simd = std::none_of(ids.begin(), ids.end(), [](const std::string& id) {
        return id.starts_with("simd-");
      });
      const std::string simd =
          p.starts_with("simd-") && no_simd
              ? "; simd-unusable and simd-alternate run the kernel glue of a module built with "
                "lockstep/kernel_compat.h (lockstep tree builds them), and none is loaded"
              : "";
      fmt::print(stderr, "lockstep run: --env '{}' names no environment (known:{}){}\n", p, known, simd);
      return 2;
    }
  for (const std::string& f : o.families)
    if (catalog::find_family(f) == nullptr) {
      std::string known;
      for (const catalog::Family* fam : catalog::families()) known += " " + std::string(fam->name);
      fmt::print(stderr, "lockstep run: --family '{}' is not a family (known:{})\n", f, known);
      return 2;
    }
  return 0;
}

// The selected environments. Without --env, a model that executes what an
// earlier one of its emulator does runs the same code paths again: said,
// and left out.
std::vector<Environment> selected_environments(const RunOptions& o, const Selection& sel,
                                               const std::vector<Environment>& all) {
  std::vector<Environment> envs;
  for (const Environment& e : all)
    if (sel.env(e.id)) envs.push_back(e);
  if (o.envs.empty())
    for (Environment& e : envs)
      if (!e.same_as.empty() && e.unavailable.empty())
        e.unavailable = fmt::format("the features of {} under the same emulator: its cells stand for these "
                                    "(--env {} runs it)",
                                    e.same_as, e.id);
  return envs;
}

// A module of a tree that did not build is a row of every report, counted.
void add_not_built(const RunOptions& o, std::vector<EnvReport>& reports) {
  for (const RunOptions::NotBuilt& n : o.not_built) {
    EnvReport r;
    r.id = "build:" + n.backend;
    r.name = "the build of " + n.backend;
    r.status = {n.broken_by_series ? Status::kFail : Status::kSkip,
                (n.broken_by_series ? "the series breaks its build: " : "not built: ") + n.why};
    fmt::print("\n== {}\n   {}({})\n", r.name, status_name(r.status.status),
               r.status.detail.substr(0, r.status.detail.find('\n')));
    reports.push_back(std::move(r));
  }
}

// What is wrong with the run as a whole: `usage` for a --backend pattern
// that matched no row anywhere (a typo, not a pass; the backends `tree`
// built are a scope, not a user's patterns), `problems` for expected cells
// that did not run.
void judge_run(const RunOptions& o, const std::vector<EnvReport>& reports,
               const std::optional<std::vector<Expectation>>& expect, std::string& usage, std::string& problems) {
  for (const std::string& p : o.backends_given ? o.backends : std::vector<std::string>{}) {
    const bool matched = std::any_of(reports.begin(), reports.end(), [&](const EnvReport& e) {
      return std::any_of(e.matrix.rows().begin(), e.matrix.rows().end(),
                         [&](const RowKey& r) { return glob_match(p, r.backend); });
    });
    if (!matched) usage += fmt::format("--backend '{}' matched no backend in any environment that ran\n", p);
  }
  if (expect)
    for (const Expectation& e : *expect)
      if (e.matched == 0)
        problems += fmt::format("{}: expected cells '{} {} {}' did not run here\n", e.where, e.env, e.backend, e.check);
}

// Writes matrix.json and, where asked, the JUnit XML and the KTAP.
void write_reports(const RunOptions& o, const std::vector<EnvReport>& reports, bool failed,
                   const std::string& summary, const std::string& cancel_note) {
  const fs::path json_path = matrix_json_path(o);
  nlohmann::json matrix{{"environments", environments_json(reports)}, {"failed", failed}, {"cells", summary}};
  if (!cancel_note.empty()) matrix["cancelled"] = cancel_note;
  write_file(json_path, matrix.dump(2) + "\n");
  fmt::print("matrix written to {}\n", json_path.string());
  if (!o.junit_out.empty()) {
    write_file(o.junit_out, junit_xml(reports) + (cancel_note.empty() ? "" : "<!-- " + cancel_note + " -->\n"));
    fmt::print("JUnit XML written to {}\n", o.junit_out);
  }
  if (!o.ktap_out.empty()) {
    write_file(o.ktap_out, ktap(reports) + (cancel_note.empty() ? "" : "# " + cancel_note + "\n"));
    fmt::print("KTAP written to {}\n", o.ktap_out);
  }
}

// Says how the run went (coverage, cells, reports written) and returns its
// exit status. A CI runner's cancel, a kill: the children are gone, the
// reports say what ran before it, and that the run did not finish.
int finish_run(const RunOptions& o, const std::vector<EnvReport>& reports,
               const std::optional<std::vector<Expectation>>& expect, Clock::time_point start) {
  const int cancelled = cancel_signal();
  const std::string cancel_note =
      cancelled ? fmt::format("cancelled by {}: the cells that had not finished are failed or missing",
                              cancelled == SIGINT ? "SIGINT" : "SIGTERM")
                : "";
  const bool failed = std::any_of(reports.begin(), reports.end(),
                                  [](const EnvReport& e) { return e.status.status == Status::kFail; });
  std::string problems, usage;
  judge_run(o, reports, expect, usage, problems);

  fmt::print("{}", coverage(reports));
  const std::string summary = summary_line(count_cells(reports));
  fmt::print("\ncells: {} (in {})\n", summary,
             format_duration(std::chrono::duration<double>(Clock::now() - start).count()));
  write_reports(o, reports, failed || !problems.empty() || !usage.empty() || cancelled, summary, cancel_note);
  if (cancelled) {
    fmt::print(stderr, "lockstep run: {}\n", cancel_note);
    return 128 + cancelled;
  }
  if (!usage.empty()) {
    fmt::print(stderr, "lockstep run: {}", usage);
    return 2;
  }
  if (!problems.empty()) {
    fmt::print(stderr, "lockstep run: {}", problems);
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace

std::string matrix_json_path(const RunOptions& o) {
  return o.json_out.empty() ? (run_dir(o) / "matrix.json").string() : o.json_out;
}

int cmd_run(const RunOptions& o) {
  std::vector<Environment> all_envs;
  if (const int rc = all_environments(o, all_envs); rc != 0) return rc;
  std::vector<std::string> ids;
  for (const Environment& e : all_envs) ids.push_back(e.id);
  if (o.list_envs) {
    for (const Environment& e : all_envs)
      fmt::print("{:<28} {:<52} {}\n", e.id, e.name, e.unavailable.empty() ? "available" : "SKIP: " + e.unavailable);
    return 0;
  }

  // Usage errors, before anything runs.
  const Selection sel{o.envs, o.families, o.backends, o.checks};
  if (const int rc = check_names_given(o, ids); rc != 0) return rc;
  std::optional<std::vector<Expectation>> expect;
  if (!o.expect.empty()) {
    std::string error;
    expect = read_expectations(o.expect, ids, error);
    if (!expect) {
      fmt::print(stderr, "lockstep run: {}\n", error);
      return 1;
    }
  }
  const std::vector<Environment> envs = selected_environments(o, sel, all_envs);
  if (const int rc = check_module_reach(sel); rc != 0) return rc;
  if (const int rc = check_run_outputs(o, "lockstep run"); rc != 0) return rc;
  if (const int rc = check_env_features(envs, "lockstep run"); rc != 0) return rc;
  fmt::print("lockstep run: {} environment(s), {} at a time; logs under {}\n", envs.size(),
             o.jobs > 0 ? o.jobs : static_cast<int>(std::thread::hardware_concurrency()),
             run_dir(o).string());
  std::fflush(stdout);

  const Clock::time_point start = Clock::now();
  cancel_children_on_signals();
  Runner runner(o, sel, expect ? &*expect : nullptr);
  std::vector<EnvReport> reports = runner.run(envs);
  add_not_built(o, reports);
  return finish_run(o, reports, expect, start);
}

}  // namespace lockstep::cli
