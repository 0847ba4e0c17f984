#include "run/plan.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "process.h"
#include "run/columns.h"
#include "run/row_placement.h"

namespace lockstep::cli {

namespace fs = std::filesystem;

std::vector<std::string> conformance_argv(const Environment& env) {
  std::vector<std::string> argv = env.launcher;
  argv.push_back((env.build / "conformance" / "conformance_tests").string());
  return argv;
}

std::string emulator_version(const Environment& env, const fs::path& out) {
  if (env.launcher.empty()) {
    for (const auto& [k, v] : env.vars)
      if (k == "LOCKSTEP_EMULATE") return "lockstep in-process trap emulator (" + v + ")";
    return "none";
  }
  const fs::path log = out / "emulator-version.txt";
  const bool sde = env.launcher[0].ends_with("sde64");
  run_process({env.launcher[0], sde ? "-version" : "--version"}, {}, log.string());
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) return line;
  return "unknown";
}

std::string describe_environment(EnvRun& r) {
  auto vars = r.env->vars;
  vars.emplace_back("LOCKSTEP_DESCRIBE", (r.out / "describe.json").string());
  std::vector<std::string> argv = conformance_argv(*r.env);
  argv.push_back("--gtest_list_tests");
  std::remove((r.out / "describe.json").c_str());
  const ProcessResult pr = run_process(argv, vars, (r.out / "tests.txt").string());
  std::ifstream described(r.out / "describe.json");
  if (!pr.error.empty() || pr.status != 0 || !described)
    return fmt::format("conformance_tests could not list its tests ({}); see {}",
                       pr.error.empty() ? fmt::format("exit {}", pr.status) : pr.error,
                       (r.out / "tests.txt").string());
  try {
    r.description = nlohmann::json::parse(described);
  } catch (const nlohmann::json::exception& e) {
    return fmt::format("{}: {}", (r.out / "describe.json").string(), e.what());
  }
  return "";
}

std::vector<Row> select_rows(const EnvRun& r, const Selection& sel, const RunOptions& o,
                             const std::vector<std::string>& available) {
  const Environment& env = *r.env;
  const auto& impls = env.backend_impls;
  const auto& same = o.same_code_everywhere;
  std::vector<Row> rows;
  for (const auto& d : r.description.at("rows")) {
    Row row;
    row.key = {d.at("algorithm").get<std::string>(), d.at("backend").get<std::string>()};
    const std::string impl = row.key.backend.substr(row.key.backend.find('/') + 1);
    if (!impls.empty() && std::find(impls.begin(), impls.end(), impl) == impls.end()) continue;
    if (!sel.backend(row.key.backend)) continue;
    row.test_name = d.at("test_name").get<std::string>();
    row.usable = d.at("usable").get<bool>();
    row.missing = d.at("missing").get<std::string>();
    row.declined = d.value("declined", "");
    row.broken = d.value("broken", "");
    row.driver_only = d.value("driver_only", "");
    if (row.usable && (d.value("module", "").empty() ||
                       std::find(same.begin(), same.end(), row.key.backend) != same.end()))
      row.elsewhere = runs_in(env.id, d.value("needs", ""), available);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> select_tests(const EnvRun& r, const Selection& sel) {
  std::set<std::string> row_tests;
  for (const Row& row : r.rows)
    if (row.elsewhere.empty()) row_tests.insert(row.test_name);
  // tests.txt is --gtest_list_tests: "Suite." lines, then "  test  # GetParam() = ..." lines.
  std::vector<std::string> tests;
  std::ifstream list(r.out / "tests.txt");
  std::string suite;
  for (std::string line; std::getline(list, line);) {
    if (line.empty()) continue;
    const size_t from = line.find_first_not_of(' '), comment = line.find("  #");
    const std::string word = line.substr(from, comment == std::string::npos ? std::string::npos : comment - from);
    if (line[0] != ' ') {
      suite = word.substr(0, word.size() - 1);  // without the dot
      continue;
    }
    const std::string full = suite + "." + word;
    if (!gtest_filter_match(r.env->gtest_filter, full)) continue;
    const std::string col = column_of(suite, word);
    if (col.empty()) {
      if (sel.per_backend_only() || !sel.check("conformance")) continue;
    } else {
      const size_t slash = word.rfind('/');
      if (!sel.check(col) || slash == std::string::npos || !row_tests.count(word.substr(slash + 1))) continue;
    }
    tests.push_back(full);
  }
  return tests;
}

std::vector<std::unique_ptr<Shard>> make_shards(const std::vector<std::string>& tests, size_t max_shards,
                                                const fs::path& out) {
  std::vector<std::unique_ptr<Shard>> shards;
  const size_t n = tests.empty() ? 0 : std::min<size_t>(max_shards, (tests.size() + 9) / 10);
  for (size_t i = 0; i < n; ++i) {
    auto s = std::make_unique<Shard>();
    for (size_t t = i; t < tests.size(); t += n) s->tests.push_back(tests[t]);
    s->log = out / fmt::format("conformance-{}.log", i);
    s->json = out / fmt::format("conformance-{}.json", i);
    s->calls = out / fmt::format("calls-{}.jsonl", i);
    shards.push_back(std::move(s));
  }
  return shards;
}

std::vector<const Row*> fuzzed_rows(const std::vector<Row>& rows, const Selection& sel) {
  std::vector<const Row*> fuzzed;
  if (!sel.check("fuzz")) return fuzzed;
  std::set<std::string> seen;
  for (const Row& row : rows)
    if (row.elsewhere.empty() && seen.insert(row.key.backend).second) fuzzed.push_back(&row);
  return fuzzed;
}

}  // namespace lockstep::cli
