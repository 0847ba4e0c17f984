// `lockstep run`: every check this host can run, against every backend, in
// every environment it can reach (natively, under the PHE trap emulator,
// under QEMU CPU models, under Intel SDE), as one matrix per environment.
// The suites decide; this file only runs them and tabulates.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "commands.h"
#include "environments.h"
#include "gtest_results.h"
#include "matrix.h"
#include "process.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// A row as the environment's own conformance_tests described it.
struct Row {
  RowKey key;
  std::string test_name;  // "sha224_x86_shani"
  bool usable = false;
  std::string missing;  // features it lacks there
};

const std::vector<std::string> kColumns = {"conformance", "vectors", "fuzz"};

// Which matrix column a GoogleTest test feeds; "" for suites that are not
// per backend.
std::string column_of(const std::string& suite, const std::string& name) {
  if (suite.ends_with("HashVectors")) return "vectors";
  if (suite.ends_with("ChachaConformance")) return name.starts_with("Vectors/") ? "vectors" : "conformance";
  if (suite.ends_with("HashConformance") || suite.ends_with("Finup2xConformance")) return "conformance";
  return "";
}

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
  std::string first_failure, skip_reason;
  void add(const TestOutcome& t) {
    if (t.result == TestOutcome::kFailed) {
      if (failed++ == 0) first_failure = t.suite + "." + t.name;
    } else if (t.result == TestOutcome::kSkipped) {
      ++skipped;
      if (skip_reason.empty()) skip_reason = t.skip_reason;
    } else {
      ++passed;
    }
  }
  Cell cell(const std::string& unusable_reason) const {
    if (failed)
      return {Status::kFail, fmt::format("{} of {} failed, first {}", failed, failed + passed + skipped,
                                         first_failure)};
    if (passed == 0)
      return {Status::kSkip, !skip_reason.empty()      ? skip_reason
                             : !unusable_reason.empty() ? unusable_reason
                                                        : "every test skipped"};
    return {Status::kPass, fmt::format("{} passed, {} skipped", passed, skipped)};
  }
};

// Folds one conformance run into the environment's matrix.
void tabulate(const SuiteRun& run, const std::vector<Row>& rows, const std::string& env_name,
              Matrix& m) {
  if (!run.error.empty()) {
    for (const Row& r : rows)
      for (const char* col : {"conformance", "vectors"}) m.set(r.key, col, {Status::kFail, run.error});
    m.add_note("conformance_tests", {Status::kFail, run.error});
    return;
  }
  std::map<std::pair<std::string, std::string>, Tally> per_cell;  // (test name suffix, column)
  std::map<std::string, Tally> other;                             // suite -> tally
  for (const TestOutcome& t : run.tests) {
    const std::string col = column_of(t.suite, t.name);
    const size_t slash = t.name.rfind('/');
    if (col.empty() || slash == std::string::npos) other[t.suite].add(t);
    else per_cell[{t.name.substr(slash + 1), col}].add(t);
  }
  for (const Row& r : rows) {
    for (const std::string col : {"conformance", "vectors"}) {
      auto it = per_cell.find({r.test_name, col});
      // Every compiled backend is instantiated; a row no test ran is a bug.
      m.set(r.key, col,
            it == per_cell.end()
                ? Cell{Status::kFail, "no " + col + " test ran for " + r.test_name}
                : it->second.cell(r.usable ? "" : "needs " + r.missing));
    }
  }
  for (const auto& [suite, t] : other) m.add_note("conformance_tests: " + suite, t.cell(""));
  bool failed = false;
  for (const auto& [k, t] : per_cell) failed |= t.failed > 0;
  for (const auto& [k, t] : other) failed |= t.failed > 0;
  if (run.exit_status != 0 && !failed)
    m.add_note("conformance_tests", {Status::kFail, fmt::format("exited with {} in {} although no test failed",
                                                              run.exit_status, env_name)});
}

std::vector<Row> rows_from(const nlohmann::json& description, const Environment& env) {
  std::vector<Row> rows;
  for (const auto& r : description.at("rows")) {
    Row row;
    row.key = {r.at("algorithm").get<std::string>(), r.at("backend").get<std::string>()};
    if (!env.backend_filter.empty() && row.key.backend.find(env.backend_filter) == std::string::npos)
      continue;
    row.test_name = r.at("test_name").get<std::string>();
    row.usable = r.at("usable").get<bool>();
    row.missing = r.at("missing").get<std::string>();
    rows.push_back(std::move(row));
  }
  return rows;
}

// The fuzz column: each backend alone (LOCKSTEP_FUZZ_BACKEND) through its
// family's harness: the committed corpus and a fixed number of random
// programs, with the environment's replay driver.
void fuzz_column(const Environment& env, const std::vector<Row>& rows, const fs::path& out_dir,
                 Matrix& m) {
  const fs::path corpus_root = fs::path(LOCKSTEP_SOURCE_DIR) / "fuzz" / "corpus";
  std::map<std::string, Cell> per_backend;
  for (const Row& r : rows) {
    if (per_backend.count(r.key.backend)) continue;
    Cell& cell = per_backend[r.key.backend];
    const std::string family = r.key.backend.substr(0, r.key.backend.find('/'));
    const std::string harness = fuzz_harness_for(family);
    if (harness.empty()) {
      cell = {Status::kFail, "no fuzz harness covers the " + family + " family"};
      continue;
    }
    if (!r.usable) {
      cell = {Status::kSkip, "needs " + r.missing};
      continue;
    }
    std::string impl = r.key.backend.substr(r.key.backend.find('/') + 1);
    const fs::path log = out_dir / ("fuzz-" + harness + "-" + impl + ".log");
    std::vector<std::string> argv = env.launcher;
    argv.push_back((env.build / "fuzz" / ("fuzz_" + harness + "_replay")).string());
    for (const std::string& a : {std::string("--runs"), std::to_string(env.fuzz_runs), std::string("--seed"),
                                 std::string("1"), (corpus_root / harness).string()})
      argv.push_back(a);
    auto vars = env.vars;
    vars.emplace_back("LOCKSTEP_FUZZ_BACKEND", r.key.backend);
    const ProcessResult pr = run_process(argv, vars, log.string());
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
      cell = {Status::kFail, (signature.empty() ? fmt::format("exit {}", pr.status) : signature) +
                                 "; see " + log.string()};
    } else {
      cell = {Status::kPass, fmt::format("corpus + {} random programs", env.fuzz_runs)};
    }
  }
  for (const Row& r : rows) m.set(r.key, "fuzz", per_backend[r.key.backend]);
}

struct Group {
  const Environment* env;
  Matrix matrix;
  nlohmann::json description;  // null when it did not run
  Cell status;                 // SKIP when the environment is missing
};

Group run_environment(const Environment& env, const fs::path& out_root, bool verbose) {
  Group g{&env, {}, nullptr, {Status::kPass, ""}};
  for (const std::string& c : kColumns) g.matrix.add_column(c);
  if (!env.unavailable.empty()) {
    // A machine meant to cover everything may not lack an environment.
    const char* all = std::getenv("LOCKSTEP_REQUIRE_ALL");
    g.status = {all && std::string(all) == "1" ? Status::kFail : Status::kSkip, env.unavailable};
    return g;
  }
  const fs::path out_dir = out_root / env.id;
  fs::create_directories(out_dir);
  fmt::print("[{}] conformance (log {})\n", env.name, (out_dir / "conformance.log").string());
  std::fflush(stdout);

  auto vars = env.vars;
  vars.emplace_back("LOCKSTEP_DESCRIBE", (out_dir / "describe.json").string());
  std::vector<std::string> args;
  if (!env.gtest_filter.empty()) args.push_back("--gtest_filter=" + env.gtest_filter);
  std::vector<std::string> command = env.launcher;
  command.push_back((env.build / "conformance" / "conformance_tests").string());
  const SuiteRun run = run_gtest(command, args, vars, (out_dir / "conformance.json").string(),
                                 (out_dir / "conformance.log").string());
  if (verbose) {
    std::ifstream log(out_dir / "conformance.log");
    fmt::print("{}", std::string(std::istreambuf_iterator<char>(log), {}));
  }
  std::ifstream described(out_dir / "describe.json");
  if (!described) {
    g.status = {Status::kFail, run.error.empty() ? "conformance_tests did not describe itself; see " +
                                                       (out_dir / "conformance.log").string()
                                                 : run.error};
    return g;
  }
  g.description = nlohmann::json::parse(described);
  const std::vector<Row> rows = rows_from(g.description, env);
  for (const Row& r : rows) g.matrix.add_row(r.key);
  tabulate(run, rows, env.name, g.matrix);

  fmt::print("[{}] fuzz, each backend alone\n", env.name);
  std::fflush(stdout);
  fuzz_column(env, rows, out_dir, g.matrix);
  if (g.matrix.any_fail()) g.status = {Status::kFail, "see the matrix"};
  return g;
}

std::string counts(const std::vector<Group>& groups) {
  int pass = 0, fail = 0, skip = 0;
  for (const Group& g : groups) {
    if (g.description.is_null()) {
      (g.status.status == Status::kFail ? fail : skip) += 1;
      continue;
    }
    const nlohmann::json j = g.matrix.to_json();
    for (const auto& row : j["rows"])
      for (const auto& [col, cell] : row["checks"].items()) {
        const std::string s = cell["status"];
        (s == "PASS" ? pass : s == "FAIL" ? fail : skip) += 1;
      }
  }
  return fmt::format("{} passed, {} failed, {} skipped", pass, fail, skip);
}

}  // namespace

int cmd_run(const RunOptions& o) {
  const fs::path out_root = fs::path(LOCKSTEP_BUILD_DIR) / "run";
  fs::create_directories(out_root);

  const std::vector<Environment> envs_to_run = environments();  // groups point into it
  std::vector<Group> groups;
  for (const Environment& env : envs_to_run) groups.push_back(run_environment(env, out_root, o.verbose));

  bool failed = false;
  nlohmann::json envs = nlohmann::json::array();
  for (const Group& g : groups) {
    fmt::print("\n== {}\n", g.env->name);
    nlohmann::json j = {{"environment", g.env->name}, {"id", g.env->id}};
    if (g.description.is_null()) {
      fmt::print("   {}({})\n", status_name(g.status.status), g.status.detail);
      j["status"] = status_name(g.status.status);
      j["detail"] = g.status.detail;
      failed |= g.status.status == Status::kFail;
    } else {
      const nlohmann::json& cpu = g.description["cpu"];
      // arm64 has no vendor string to show; the environment's name says the model.
      std::string who = cpu.value("vendor", "") + " " + cpu.value("brand", "");
      if (who == " ") who = g.description.value("arch", "");
      fmt::print("   cpu: {}\n   effective: {}\n", who, cpu.value("effective", ""));
      if (!cpu.value("emulated", "").empty()) fmt::print("   emulated: {}\n", cpu.value("emulated", ""));
      std::string sel;
      for (const auto& [alg, b] : g.description["selected"].items())
        sel += fmt::format("{}{} -> {}", sel.empty() ? "" : ", ", alg, b.get<std::string>());
      fmt::print("   selected: {}\n\n{}", sel, g.matrix.to_text());
      j["status"] = g.matrix.any_fail() ? "FAIL" : "PASS";
      j["cpu"] = cpu;
      j["selected"] = g.description["selected"];
      j["matrix"] = g.matrix.to_json();
      failed |= g.matrix.any_fail();
    }
    envs.push_back(j);
  }
  const std::string summary = counts(groups);
  fmt::print("\ncells: {}\n", summary);
  const fs::path json_path = o.json_out.empty() ? out_root / "matrix.json" : fs::path(o.json_out);
  std::ofstream(json_path) << nlohmann::json{{"environments", envs}, {"failed", failed}, {"cells", summary}}.dump(2)
                           << "\n";
  fmt::print("matrix written to {}\n", json_path.string());
  return failed ? 1 : 0;
}

}  // namespace lockstep::cli
