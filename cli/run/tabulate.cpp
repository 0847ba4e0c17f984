#include "run/tabulate.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "process.h"
#include "progress.h"
#include "run/cell_calls.h"
#include "run/columns.h"
#include "run/emulator_selftest.h"
#include "run/kunit_ktap.h"
#include "run/unchecked_call.h"

namespace lockstep::cli {

void Expectations::apply(const Environment& env, const RowKey& row, const std::string& col, Cell& cell) {
  if (!list_) return;
  std::lock_guard lock(m_);
  for (Expectation& e : *list_) {
    if (!glob_match(e.env, env.id) || !glob_match(e.backend, row.backend) || !glob_match(e.check, col)) continue;
    ++e.matched;
    if (cell.status == Status::kSkip)
      cell = {Status::kFail, fmt::format("expected to PASS here ({}), but SKIP({})", e.where, cell.detail),
              cell.reproduce, cell.provenance};
  }
}

namespace {

// The outcomes of the tests of one cell (or of one suite that is not per
// backend), summed into its verdict.
struct Tally {
  int passed = 0, failed = 0, skipped = 0, warned = 0;
  double seconds = 0;
  std::string first_failure, skip_reason, first_warning, first_note;
  std::vector<SkippedTests> skips;
  void add(const TestOutcome& t) {
    seconds += t.seconds;
    if (first_note.empty()) first_note = t.note;
    if (!t.warning.empty() && warned++ == 0) first_warning = t.warning;
    if (t.result == TestOutcome::kFailed) {
      if (failed++ == 0) {
        first_failure = t.suite + "." + t.name;
        // A crash says how in the cell itself: "crashed: died of signal 11 (SIGSEGV)".
        if (t.failure.starts_with("crashed:")) first_failure += ": " + t.failure.substr(0, t.failure.find(';'));
      }
    } else if (t.result == TestOutcome::kSkipped) {
      ++skipped;
      if (skip_reason.empty()) skip_reason = t.skip_reason;
      const std::string reason = t.skip_reason.empty() ? "no reason given" : t.skip_reason;
      const auto same =
          std::find_if(skips.begin(), skips.end(), [&](const SkippedTests& k) { return k.reason == reason; });
      if (same == skips.end())
        skips.push_back({reason, 1, t.suite + "." + t.name});
      else
        ++same->tests;
    } else {
      ++passed;
    }
  }
  Cell cell(const std::string& unusable_reason) const {
    Cell c = verdict(unusable_reason);
    c.seconds = seconds;
    if (c.status == Status::kPass || c.status == Status::kWarn) c.skipped = skips;
    return c;
  }
  Cell verdict(const std::string& unusable_reason) const {
    if (failed)
      return {Status::kFail, fmt::format("{} of {} failed, first {}", failed, failed + passed + skipped,
                                         first_failure)};
    if (passed == 0)
      return {Status::kSkip, !skip_reason.empty()      ? skip_reason
                             : !unusable_reason.empty() ? unusable_reason
                                                        : "every test skipped"};
    if (warned)
      return {Status::kWarn, warned == 1 ? first_warning : fmt::format("{} (and {} more)", first_warning, warned - 1)};
    return {Status::kPass, fmt::format("{} passed, {} skipped{}", passed, skipped,
                                       first_note.empty() ? "" : "; " + first_note)};
  }
};

// The CPU an environment's suite described.
nlohmann::json cpu_of(const nlohmann::json& description) {
  return description.value("cpu", nlohmann::json::object());
}

using CellKey = std::pair<std::string, std::string>;  // (row's test name, column)

// Every shard's outcomes, with the calls each test made; a shard that did
// not report fails its tests.
struct Outcomes {
  std::vector<TestOutcome> tests;
  CellCalls calls;
  bool unexplained_exit = false;  // a shard exited non-zero although none of its tests failed
};

Outcomes collect(const EnvRun& r) {
  Outcomes o;
  for (const auto& s : r.shards) {
    if (!s->run.error.empty()) {
      for (const std::string& t : s->tests) {
        const size_t dot = t.find('.');
        o.tests.push_back({t.substr(0, dot), t.substr(dot + 1), TestOutcome::kFailed, s->run.error, "", ""});
      }
      continue;
    }
    o.tests.insert(o.tests.end(), s->run.tests.begin(), s->run.tests.end());
    const bool any_failed = std::any_of(s->run.tests.begin(), s->run.tests.end(),
                                        [](const TestOutcome& t) { return t.result == TestOutcome::kFailed; });
    o.unexplained_exit |= s->run.exit_status != 0 && !any_failed;
    o.calls.read(s->calls);
  }
  return o;
}

// The outcomes summed per cell and per other suite, with each cell's first
// failing test; every failed test goes to the report with its command.
struct Tallies {
  std::map<CellKey, Tally> cells;
  std::map<std::string, Tally> other;  // suite -> tally
  std::map<CellKey, std::string> first_failing_test;
};

Tallies tally(Outcomes& o, const Environment& env, EnvReport& rep) {
  Tallies t;
  const std::vector<std::string> argv = conformance_argv(env);
  for (const TestOutcome& test : o.tests) {
    const std::string col = column_of(test.suite, test.name);
    const size_t slash = test.name.rfind('/');
    const std::string full = test.suite + "." + test.name;
    if (col.empty() || slash == std::string::npos) {
      t.other[test.suite].add(test);
    } else {
      const CellKey key{test.name.substr(slash + 1), col};
      t.cells[key].add(test);
      o.calls.attribute(key.first, col, full);
      if (test.result == TestOutcome::kFailed) t.first_failing_test.try_emplace(key, full);
    }
    if (test.result == TestOutcome::kFailed) {
      std::vector<std::string> rerun = argv;
      rerun.push_back("--gtest_filter=" + full);
      rep.failed_tests.push_back({test, command_line(env.vars, rerun)});
    }
  }
  return t;
}

// The cell the tests (or the fuzz check) decided, before what the row and
// the environment say of it.
Cell decided_cell(const EnvRun& r, const Row& row, const std::string& col, const Tallies& t) {
  if (col == "fuzz") {
    const auto it = r.fuzz.find(row.key.backend);
    return it != r.fuzz.end() ? it->second : Cell{Status::kFail, "the fuzz check did not run"};
  }
  const auto it = t.cells.find({row.test_name, col});
  // Every compiled backend is instantiated; a row no test ran for is a bug,
  // unless the environment leaves its tests out.
  if (it == t.cells.end()) return {Status::kFail, "no " + col + " test ran for " + row.test_name};
  Cell cell = it->second.cell(row.usable ? "" : "needs " + row.missing);
  if (const auto first = t.first_failing_test.find({row.test_name, col});
      cell.status == Status::kFail && first != t.first_failing_test.end()) {
    std::vector<std::string> rerun = conformance_argv(*r.env);
    rerun.push_back("--gtest_filter=" + first->second);
    cell.reproduce = command_line(r.env->vars, rerun);
  }
  return cell;
}

Cell row_cell(const EnvRun& r, const Row& row, const std::string& col, const Tallies& t, Outcomes& o,
              const RunOptions& opts) {
  const EnvReport& rep = r.report;
  if (!row.elsewhere.empty()) {
    Cell cell{Status::kSkip, fmt::format("the same code under the same emulator runs in {}, the lowest "
                                         "model of the run with its needs: its cells stand for this one",
                                         row.elsewhere)};
    cell.provenance = rep.provenance;
    return cell;
  }
  Cell cell = decided_cell(r, row, col, t);
  // A row its backend declined (a module without 12 rounds) is SKIP with
  // that reason in every column, the per-backend fuzz one too, and does not
  // count against the backend's coverage.
  if (!row.declined.empty() && (col == "fuzz" || cell.status != Status::kFail))
    cell = {Status::kSkip, row.declined};
  // A backend its module found broken: the module's words, every column.
  if (!row.broken.empty()) cell = {Status::kFail, row.broken};
  explain_unchecked_call(opts.unchecked_calls, row.key.backend, cpu_of(r.description).value("effective", ""),
                         cell);
  cell.provenance = rep.provenance;
  // The fuzz check's driver counts no calls: its cell claims none.
  if (col != "fuzz") o.calls.describe(row.test_name, col, row.key.backend, cell.provenance);
  if (!row.declined.empty()) cell.provenance["declined"] = true;
  if (r.selftest && r.selftest->status == Status::kFail) cell = under_failed_selftest(cell, *r.selftest);
  return cell;
}

nlohmann::json provenance_of(const EnvRun& r) {
  const Environment& env = *r.env;
  const nlohmann::json cpu = cpu_of(r.description);
  return {{"environment", env.name},
          {"emulator", !env.launcher.empty()        ? command_line({}, env.launcher)
                       : r.emulator_version == "none" ? "none (native)"
                                                      : command_line(env.vars, {})},
          {"emulator_version", r.emulator_version},
          {"cpu_detected", cpu.value("detected", "")},
          {"cpu_effective", cpu.value("effective", "")},
          {"cpu_emulated", cpu.value("emulated", "")},
          {"seed", r.description.value("seed", "")}};
}

// The header of an environment's matrix: what ran, on which CPU, where the
// logs are.
std::string header(const EnvRun& r) {
  const EnvReport& rep = r.report;
  const nlohmann::json cpu = cpu_of(rep.description);
  // arm64 has no vendor string to show; the environment's name says the model.
  std::string who = cpu.value("vendor", "") + " " + cpu.value("brand", "");
  if (who == " ") {
    who = rep.description.value("arch", "");
    const auto& l = r.env->launcher;
    if (const auto m = std::find(l.begin(), l.end(), "-cpu"); m != l.end() && m + 1 != l.end())
      who += ", QEMU model " + *(m + 1);
  }
  std::string out = fmt::format("\n== {} ({}, {})\n   cpu: {}\n   effective: {}\n", r.env->name,
                                status_name(rep.status.status), format_duration(rep.seconds), who,
                                cpu.value("effective", ""));
  if (!cpu.value("emulated", "").empty()) out += fmt::format("   emulated: {}\n", cpu.value("emulated", ""));
  if (r.emulator_version != "none") out += fmt::format("   emulator: {}\n", r.emulator_version);
  std::string sel;
  for (const auto& [alg, b] : rep.description["selected"].items())
    sel += fmt::format("{}{} -> {}", sel.empty() ? "" : ", ", alg, b.get<std::string>());
  out += fmt::format("   selected: {}\n", sel);
  for (const auto& line : rep.description.value("kernel_selected", nlohmann::json::array()))
    out += fmt::format("   kernel selected: {}\n", line.get<std::string>());
  out += fmt::format("   logs: {}\n", r.out.string());
  if (r.kunit_suites > 0)
    out += fmt::format("   kunit: {} suite(s) in KTAP, {} (the tree's tools/testing/kunit/kunit.py parse reads it)\n",
                       r.kunit_suites, (r.out / "kunit.ktap").string());
  return out;
}

// What the passing cells did not check: each reason their tests skipped for.
std::string skipped_in_passes(const Matrix& m) {
  std::string out;
  for (const RowKey& row : m.rows())
    for (const std::string& col : m.columns())
      for (const SkippedTests& k : m.get(row, col).skipped)
        out += fmt::format("  {} {} {}: {} test(s), first {}: {}\n", row.algorithm, row.backend, col, k.tests,
                           k.first, k.reason);
  return out.empty() ? "" : "\nskipped in cells that passed:\n" + out;
}

std::string render(const EnvRun& r, bool verbose) {
  std::string out = header(r) + "\n" + r.report.matrix.to_text();
  if (verbose) out += skipped_in_passes(r.report.matrix);
  if (verbose)
    for (const auto& s : r.shards) {
      std::ifstream log(s->log);
      out += std::string(std::istreambuf_iterator<char>(log), {});
    }
  return out;
}

// The text of an environment that ran nothing: it could not start, or the
// selection left nothing here.
std::string ran_nothing(EnvRun& r) {
  EnvReport& rep = r.report;
  r.phase = 2;
  if (r.description.is_null())
    return fmt::format("\n== {}\n   {}({})\n", r.env->name, status_name(rep.status.status), rep.status.detail);
  // Scoped away: not a result, so neither a cell nor a pass.
  rep.not_selected = true;
  rep.status = {Status::kSkip, "nothing selected runs here"};
  return fmt::format("\n== {}\n   nothing selected runs here\n", r.env->name);
}

}  // namespace

std::string tabulate(EnvRun& r, const Selection& sel, const RunOptions& o, Expectations& expect) {
  EnvReport& rep = r.report;
  rep.seconds = std::chrono::duration<double>(RunClock::now() - r.start).count();
  if (r.description.is_null() || (r.rows.empty() && r.shards.empty())) return ran_nothing(r);
  rep.ran = true;
  rep.description = r.description;
  rep.provenance = provenance_of(r);
  for (const std::string& c : check_names())
    if (sel.check(c)) rep.matrix.add_column(c);
  for (const Row& row : r.rows) rep.matrix.add_row(row.key);

  Outcomes outcomes = collect(r);
  // The KUnit suites' KTAP, one document per environment.
  r.kunit_suites = write_ktap(r.out / "kunit.ktap", outcomes.tests);
  const Tallies t = tally(outcomes, *r.env, rep);
  for (const Row& row : r.rows)
    for (const std::string& col : rep.matrix.columns()) {
      Cell cell = row_cell(r, row, col, t, outcomes, o);
      if (row.elsewhere.empty()) expect.apply(*r.env, row.key, col, cell);
      rep.matrix.set(row.key, col, std::move(cell));
    }
  if (r.selftest) rep.matrix.add_note("emulator self-test", *r.selftest);
  for (const auto& [suite, tally] : t.other) rep.matrix.add_note("conformance_tests: " + suite, tally.cell(""));
  if (outcomes.unexplained_exit)
    rep.matrix.add_note("conformance_tests",
                        {Status::kFail, fmt::format("a shard exited non-zero although no test failed; see {}",
                                                    r.out.string())});
  rep.status = {rep.matrix.any_fail() ? Status::kFail : Status::kPass, ""};
  r.phase = 2;
  return render(r, o.verbose);
}

}  // namespace lockstep::cli
