// `lockstep run`: every check this host can run, against every backend, as
// one matrix. The suites decide; this file only runs them and tabulates.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "catalog.h"
#include "commands.h"
#include "gtest_results.h"
#include "matrix.h"
#include "process.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

struct RowRef {
  RowKey key;
  const Backend* backend;
};

std::vector<RowRef> all_rows() {
  std::vector<RowRef> rows;
  for (const catalog::HashAlgorithm* alg : catalog::hash_algorithms())
    for (const Backend* b : alg->family->backends())
      rows.push_back({{std::string(alg->name), std::string(b->name)}, b});
  return rows;
}

// Which matrix column a GoogleTest suite feeds; "" for suites that are not
// per backend.
std::string column_of(const std::string& suite) {
  auto ends_with = [&](std::string_view s) { return suite.ends_with(s); };
  if (ends_with("HashVectors")) return "vectors";
  if (ends_with("HashConformance") || ends_with("Finup2xConformance")) return "conformance";
  return "";
}

std::string why_unusable(const Backend& b) {
  const cpu::FeatureSet eff = cpu::effective();
  return fmt::format("needs {}", (b.needs - eff).to_string());
}

// Folds the outcomes of one suite run into the matrix.
void tabulate(const SuiteRun& run, const std::vector<RowRef>& rows,
              const std::vector<std::string>& columns, const std::string& suite_name, Matrix& m) {
  if (!run.error.empty()) {
    for (const RowRef& r : rows)
      for (const std::string& col : columns) m.set(r.key, col, {Status::kFail, run.error});
    m.add_note(suite_name, {Status::kFail, run.error});
    return;
  }
  struct Tally {
    int passed = 0, failed = 0, skipped = 0;
    std::string first_failure, skip_reason;
  };
  std::map<std::pair<std::string, std::string>, Tally> per_cell;  // (test name suffix, column)
  std::map<std::string, Tally> other;                             // suite -> tally
  for (const TestOutcome& t : run.tests) {
    const std::string col = column_of(t.suite);
    const size_t slash = t.name.rfind('/');
    Tally& tally = (col.empty() || slash == std::string::npos)
                       ? other[t.suite]
                       : per_cell[{t.name.substr(slash + 1), col}];
    if (t.result == TestOutcome::kFailed) {
      if (tally.failed++ == 0) tally.first_failure = t.suite + "." + t.name;
    } else if (t.result == TestOutcome::kSkipped) {
      ++tally.skipped;
      if (tally.skip_reason.empty()) tally.skip_reason = t.skip_reason;
    } else {
      ++tally.passed;
    }
  }
  for (const RowRef& r : rows) {
    const std::string id = catalog::test_name(r.key.algorithm, *r.backend);
    for (const std::string& col : columns) {
      auto it = per_cell.find({id, col});
      if (it == per_cell.end()) {
        // Every compiled backend is instantiated; a row no test ran is a bug.
        m.set(r.key, col, {Status::kFail, "no " + col + " test ran for " + id});
        continue;
      }
      const Tally& t = it->second;
      if (t.failed) {
        m.set(r.key, col,
              {Status::kFail, fmt::format("{} of {} failed, first {}", t.failed,
                                          t.failed + t.passed + t.skipped, t.first_failure)});
      } else if (t.passed == 0) {
        m.set(r.key, col,
              {Status::kSkip, !t.skip_reason.empty()      ? t.skip_reason
                              : !r.backend->usable(cpu::effective()) ? why_unusable(*r.backend)
                                                                     : "every test skipped"});
      } else {
        m.set(r.key, col,
              {Status::kPass, fmt::format("{} passed, {} skipped", t.passed, t.skipped)});
      }
    }
  }
  for (const auto& [suite, t] : other) {
    const std::string name = suite_name + ": " + suite;
    if (t.failed)
      m.add_note(name, {Status::kFail, fmt::format("{} failed, first {}", t.failed, t.first_failure)});
    else if (t.passed == 0)
      m.add_note(name, {Status::kSkip, t.skip_reason.empty() ? "every test skipped" : t.skip_reason});
    else
      m.add_note(name, {Status::kPass, fmt::format("{} tests", t.passed)});
  }
  if (run.exit_status != 0 && !m.any_fail())
    m.add_note(suite_name, {Status::kFail, fmt::format("exited with {} although no test failed",
                                                       run.exit_status)});
}

// The harness that covers each family ("fuzz_<harness>_replay").
struct FuzzHarness {
  std::string_view family, harness;
};
constexpr FuzzHarness kFuzzHarnesses[] = {{"sha256", "sha256"}};

// The fuzz column: each backend alone (LOCKSTEP_FUZZ_BACKEND) through its
// family's harness, the committed corpus and a fixed number of random
// programs, with the replay driver of this build.
void fuzz_column(const std::vector<RowRef>& rows, const fs::path& out_dir, Matrix& m) {
  const fs::path build = LOCKSTEP_BUILD_DIR;
  const fs::path corpus_root = fs::path(LOCKSTEP_SOURCE_DIR) / "fuzz" / "corpus";
  std::map<const Backend*, Cell> per_backend;
  for (const RowRef& r : rows) {
    if (per_backend.count(r.backend)) continue;
    const catalog::Family* fam = catalog::family_of(r.backend);
    std::string_view harness;
    for (const FuzzHarness& h : kFuzzHarnesses)
      if (fam && h.family == fam->name) harness = h.harness;
    Cell& cell = per_backend[r.backend];
    if (harness.empty()) {
      cell = {Status::kFail, "no fuzz harness covers this family"};
      continue;
    }
    if (!r.backend->usable(cpu::effective())) {
      cell = {Status::kSkip, why_unusable(*r.backend)};
      continue;
    }
    const std::string name = "fuzz_" + std::string(harness);
    const std::string log = (out_dir / ("fuzz-" + catalog::test_name(harness, *r.backend) + ".log")).string();
    constexpr int kRuns = 20000;
    const ProcessResult pr = run_process(
        {(build / "fuzz" / (name + "_replay")).string(), "--runs", std::to_string(kRuns), "--seed", "1",
         (corpus_root / std::string(harness)).string()},
        {{"LOCKSTEP_FUZZ_BACKEND", std::string(r.backend->name)}}, log);
    if (!pr.error.empty()) {
      cell = {Status::kFail, pr.error};
    } else if (pr.status != 0) {
      // The harness's first line names the mismatch.
      std::ifstream in(log);
      std::string line, signature;
      while (std::getline(in, line))
        if (line.starts_with("lockstep: ")) {
          signature = line;
          break;
        }
      cell = {Status::kFail, (signature.empty() ? fmt::format("exit {}", pr.status) : signature) + "; see " + log};
    } else {
      cell = {Status::kPass, fmt::format("corpus + {} random programs", kRuns)};
    }
  }
  for (const RowRef& r : rows) m.set(r.key, "fuzz", per_backend[r.backend]);
}

}  // namespace

int cmd_run(const RunOptions& o) {
  const fs::path out_dir = fs::path(LOCKSTEP_BUILD_DIR) / "run";
  fs::create_directories(out_dir);

  Matrix m;
  const std::vector<RowRef> rows = all_rows();
  for (const RowRef& r : rows) m.add_row(r.key);
  const std::vector<std::string> columns = {"conformance", "vectors"};
  for (const std::string& c : columns) m.add_column(c);
  m.add_column("fuzz");

  fmt::print("running conformance suites (log: {})...\n", (out_dir / "conformance.log").string());
  std::fflush(stdout);
  const SuiteRun conformance =
      run_gtest(LOCKSTEP_CONFORMANCE_TESTS, {}, {}, (out_dir / "conformance.json").string(),
                (out_dir / "conformance.log").string());
  if (o.verbose) {
    std::ifstream log(out_dir / "conformance.log");
    fmt::print("{}", std::string(std::istreambuf_iterator<char>(log), {}));
  }
  tabulate(conformance, rows, columns, "conformance_tests", m);

  fmt::print("fuzzing each backend through the replay driver...\n");
  std::fflush(stdout);
  fuzz_column(rows, out_dir, m);

  fmt::print("\n{}\n", m.to_text());
  fmt::print("{}", cpu::report());
  fmt::print("selected by default:\n");
  nlohmann::json selected = nlohmann::json::object();
  for (const catalog::HashAlgorithm* alg : catalog::hash_algorithms()) {
    const Backend* b = alg->family->default_backend();
    fmt::print("  {:<8} {}\n", alg->name, b->name);
    selected[std::string(alg->name)] = b->name;
  }

  nlohmann::json j = m.to_json();
  j["cpu"] = {{"report", cpu::report()},
              {"detected", cpu::state().detection.features.to_string()},
              {"effective", cpu::effective().to_string()},
              {"mask", cpu::state().mask}};
  j["selected"] = selected;
  const fs::path json_path = o.json_out.empty() ? out_dir / "matrix.json" : fs::path(o.json_out);
  std::ofstream(json_path) << j.dump(2) << "\n";
  fmt::print("\nmatrix written to {}\n", json_path.string());
  return m.any_fail() ? 1 : 0;
}

}  // namespace lockstep::cli
