// `lockstep run`: every check this host can run, against every backend, in
// every environment it can reach (natively, under the trap emulators, under
// QEMU CPU models, under Intel SDE), as one matrix per environment.
//
// The suites decide; this file only schedules them and tabulates. Each
// environment is first described (its backends, what its CPU has, which
// tests exist), then its selected tests run in shards and each backend's
// fuzz check runs alone, all as tasks on a pool of one worker per core, so
// that independent environments use every core. An environment's matrix is
// printed as soon as its last task ends.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "catalog.h"
#include "cell_calls.h"
#include "commands.h"
#include "cpu/cpu.h"
#include "emulator_selftest.h"
#include "env_features.h"
#include "environments.h"
#include "gtest_log.h"
#include "gtest_results.h"
#include "kunit_ktap.h"
#include "matrix.h"
#include "modules.h"
#include "output_paths.h"
#include "process.h"
#include "progress.h"
#include "row_modules.h"
#include "row_placement.h"
#include "run_reports.h"
#include "run_select.h"
#include "task_pool.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A row as the environment's own conformance_tests described it.
struct Row {
  RowKey key;
  std::string test_name;  // "sha224_x86_shani"
  bool usable = false;
  std::string missing;  // features it lacks there
  std::string declined;  // why the backend runs none of this algorithm, or ""
  std::string broken;    // how its module found it broken here (every cell FAILs), or ""
  std::string driver_only;  // why only its whole-message driver's tests apply (fuzz among the rest), or ""
  std::string elsewhere;  // the model of this emulator where the row runs instead (row_placement.h), or ""
};

// Which matrix column a GoogleTest test feeds; "" for suites that are not
// per backend.
std::string column_of(const std::string& suite, const std::string& name) {
  if (suite.ends_with("HashVectors")) return "vectors";
  if (suite.ends_with("HashAbi") || suite.ends_with("CipherAbi")) return "abi";
  if (suite.ends_with("HashIsa") || suite.ends_with("CipherIsa")) return "isa";
  if (suite.ends_with("HashResidue") || suite.ends_with("CipherResidue")) return "residue";
  if (suite.ends_with("HashCt") || suite.ends_with("CipherCt")) return "ct";
  if (suite.ends_with("HashDispatch") || suite.ends_with("CipherDispatch")) return "dispatch";
  if (suite.ends_with("HugeByteCount") || suite.ends_with("HugeCall") || suite.ends_with("HugeCipherCall"))
    return "huge";
  if (suite.ends_with("ChachaConformance")) return name.starts_with("Vectors/") ? "vectors" : "conformance";
  if (suite.ends_with("HashKunit") || suite.ends_with("CipherKunit")) return "kunit";
  if (suite.ends_with("HashConformance") || suite.ends_with("Finup2xConformance") ||
      suite.ends_with("CipherDriverConformance") || suite.ends_with("MacDriverConformance"))
    return "conformance";
  return "";
}

struct Tally {
  int passed = 0, failed = 0, skipped = 0, warned = 0;
  double seconds = 0;
  std::string first_failure, skip_reason, first_warning, first_note;
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
    } else {
      ++passed;
    }
  }
  Cell cell(const std::string& unusable_reason) const {
    Cell c = verdict(unusable_reason);
    c.seconds = seconds;
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

// One process of an environment's conformance tests.
struct Shard {
  std::vector<std::string> tests;  // full names
  fs::path log, json, calls;
  SuiteRun run;
  bool done = false;
};

// Where a run keeps its logs: --out, else the build's run/ folder.
fs::path run_dir(const RunOptions& o) {
  return o.out.empty() ? fs::path(LOCKSTEP_BUILD_DIR) / "run" : fs::absolute(o.out);
}

// What a GoogleTest log says of a process that died before its report: the
// tests it finished, with their outcomes, and the one it died in (empty when
// every started test finished). A finished test's message is its log text.
struct DeadRun {
  std::vector<TestOutcome> finished;
  std::string unfinished;
};

DeadRun read_dead_run(const fs::path& log) {
  DeadRun d;
  std::ifstream in(log);
  std::string body;
  auto ends = [&](const std::string& line, const char* mark) {
    // "[       OK ] All/X.Y/z (3 ms)", "[  FAILED  ] All/X.Y/z, where ..."
    if (d.unfinished.empty() || !line.starts_with(mark)) return false;
    const std::string rest = line.substr(13);
    return rest.starts_with(d.unfinished) &&
           (rest.size() == d.unfinished.size() || rest[d.unfinished.size()] == ' ' ||
            rest[d.unfinished.size()] == ',');
  };
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("[ RUN      ] ")) {
      d.unfinished = line.substr(13);
      body.clear();
      continue;
    }
    const bool ok = ends(line, "[       OK ] "), failed = ends(line, "[  FAILED  ] "),
               skipped = ends(line, "[  SKIPPED ] ");
    if (ok || failed || skipped) {
      const size_t dot = d.unfinished.find('.');
      TestOutcome t{d.unfinished.substr(0, dot), d.unfinished.substr(dot + 1), TestOutcome::kPassed, "", "", ""};
      if (failed) t.result = TestOutcome::kFailed, t.failure = body;
      if (skipped) {
        // The reason the fixture printed (backend_fixture.cpp), else the
        // body: GoogleTest's own "file:line: Skipped" and message.
        const size_t why = body.find("[ SKIP WHY ] ");
        t.result = TestOutcome::kSkipped;
        t.skip_reason = why == std::string::npos ? body : body.substr(why + 13, body.find('\n', why) - why - 13);
      }
      d.finished.push_back(std::move(t));
      d.unfinished.clear();
    } else if (!d.unfinished.empty()) {
      body += line + "\n";
    }
  }
  return d;
}

// How a process that wrote no report ended, for the failure it is blamed on.
std::string how_it_died(int exit_status) {
  if (exit_status >= 0) return fmt::format("exited with status {} without a report", exit_status);
  const char* abbrev = sigabbrev_np(-exit_status);
  return fmt::format("died of signal {} (SIG{})", -exit_status, abbrev ? abbrev : "?");
}

struct EnvRun {
  const Environment* env = nullptr;
  fs::path out;
  std::mutex m;
  nlohmann::json description;
  std::vector<Row> rows;
  std::vector<std::unique_ptr<Shard>> shards;
  std::map<std::string, Cell> fuzz;  // backend -> its fuzz cell
  std::string emulator_version;
  std::optional<Cell> selftest;  // the trap emulator's, where the environment has one
  int kunit_suites = 0;          // how many KUnit suites its kunit.ktap holds
  std::atomic<int> pending{0};
  std::atomic<int> tests_total{0}, fuzz_total{0}, fuzz_done{0};
  std::atomic<int> phase{0};  // 0 queued, 1 described, 2 done
  std::atomic<int> active{0};  // tasks running now
  Clock::time_point start;
  EnvReport report;
};

class Runner {
 public:
  Runner(const RunOptions& o, Selection sel, std::vector<Expectation>* expect)
      : o_(o), sel_(std::move(sel)), expect_(expect), out_root_(run_dir(o)) {}

  // run runs every selected environment and returns their reports in order.
  std::vector<EnvReport> run(const std::vector<Environment>& envs) {
    fs::create_directories(out_root_);
    // The run's dear expected values, computed once (conformance/
    // expected_cache.h); a run's own, never a stale one.
    std::error_code ignored;
    fs::remove_all(out_root_ / "expected", ignored);
    fs::create_directories(out_root_ / "expected", ignored);
    for (const Environment& e : envs)
      if (e.unavailable.empty()) available_ids_.push_back(e.id);
    for (const Environment& e : envs) {
      auto r = std::make_unique<EnvRun>();
      r->env = &e;
      r->out = out_root_ / e.id;
      r->report.id = e.id;
      r->report.name = e.name;
      runs_.push_back(std::move(r));
    }
    const int jobs = o_.jobs > 0 ? o_.jobs : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    shards_per_env_ = jobs;
    {
      Progress progress([this] { return status(); });
      progress_ = &progress;
      TaskPool pool(jobs);
      pool_ = &pool;
      for (auto& r : runs_) {
        if (!r->env->unavailable.empty()) {
          finish_unavailable(*r);
          continue;
        }
        EnvRun* er = r.get();
        pool.add([this, er] { describe(*er); });
      }
      pool.wait();
      pool_ = nullptr;
      progress_ = nullptr;
    }
    std::vector<EnvReport> out;
    for (auto& r : runs_) out.push_back(std::move(r->report));
    return out;
  }

 private:
  std::string status() {
    int done = 0, waiting = 0;
    std::string running;
    for (auto& r : runs_) {
      if (r->phase == 2) {
        ++done;
        continue;
      }
      if (r->active == 0) {
        ++waiting;
        continue;
      }
      int tests = 0;
      {
        std::lock_guard lock(r->m);
        for (const auto& s : r->shards) tests += s->done ? static_cast<int>(s->run.tests.size()) : finished_in_log(s->log);
      }
      running += fmt::format(" | {}: tests {}/{}", r->env->id, tests, r->tests_total.load());
      if (r->fuzz_total) running += fmt::format(", fuzz {}/{}", r->fuzz_done.load(), r->fuzz_total.load());
    }
    return fmt::format("{} of {} environments done, {} waiting{}", done, runs_.size(), waiting, running);
  }

  void finish_unavailable(EnvRun& r) {
    // A machine meant to cover everything may not lack an environment.
    const char* all = std::getenv("LOCKSTEP_REQUIRE_ALL");
    r.report.status = {all && std::string(all) == "1" ? Status::kFail : Status::kSkip, r.env->unavailable};
    r.phase = 2;
    progress_->print(fmt::format("\n== {}\n   {}({})\n", r.env->name, status_name(r.report.status.status),
                                 r.report.status.detail));
  }

  // The emulator in front of the binaries, for provenance: QEMU and SDE say
  // their version; the in-process trap emulators are part of this build.
  std::string emulator_version(const Environment& env) {
    if (env.launcher.empty()) {
      for (const auto& [k, v] : env.vars)
        if (k == "LOCKSTEP_EMULATE") return "lockstep in-process trap emulator (" + v + ")";
      return "none";
    }
    const fs::path log = out_root_ / env.id / "emulator-version.txt";
    const bool sde = env.launcher[0].ends_with("sde64");
    run_process({env.launcher[0], sde ? "-version" : "--version"}, {}, log.string());
    std::ifstream in(log);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) return line;
    return "unknown";
  }

  // Describes the environment and queues its tests and fuzz checks.
  void describe(EnvRun& r) {
    ++r.active;
    describe_and_queue(r);
    --r.active;
  }

  void describe_and_queue(EnvRun& r) {
    r.phase = 1;
    r.start = Clock::now();
    // Logs of an earlier run (of other shards, say) would only mislead.
    std::error_code ignored;
    fs::remove_all(r.out, ignored);
    fs::create_directories(r.out);
    const Environment& env = *r.env;
    r.emulator_version = emulator_version(env);
    if (!env.selftest.empty()) r.selftest = run_emulator_selftest(env, r.out);
    auto vars = env.vars;
    vars.emplace_back("LOCKSTEP_DESCRIBE", (r.out / "describe.json").string());
    std::vector<std::string> argv = env.launcher;
    argv.push_back((env.build / "conformance" / "conformance_tests").string());
    argv.push_back("--gtest_list_tests");
    std::remove((r.out / "describe.json").c_str());
    const ProcessResult pr = run_process(argv, vars, (r.out / "tests.txt").string());
    std::ifstream described(r.out / "describe.json");
    if (!pr.error.empty() || pr.status != 0 || !described) {
      r.report.status = {Status::kFail, fmt::format("conformance_tests could not list its tests ({}); see {}",
                                                    pr.error.empty() ? fmt::format("exit {}", pr.status) : pr.error,
                                                    (r.out / "tests.txt").string())};
      finish(r);
      return;
    }
    try {
      r.description = nlohmann::json::parse(described);
    } catch (const nlohmann::json::exception& e) {
      r.report.status = {Status::kFail, fmt::format("{}: {}", (r.out / "describe.json").string(), e.what())};
      finish(r);
      return;
    }
    for (const auto& d : r.description.at("rows")) {
      Row row;
      row.key = {d.at("algorithm").get<std::string>(), d.at("backend").get<std::string>()};
      if (!env.backend_impls.empty() &&
          std::find(env.backend_impls.begin(), env.backend_impls.end(),
                    row.key.backend.substr(row.key.backend.find('/') + 1)) == env.backend_impls.end())
        continue;
      if (!sel_.backend(row.key.backend)) continue;
      row.test_name = d.at("test_name").get<std::string>();
      row.usable = d.at("usable").get<bool>();
      row.missing = d.at("missing").get<std::string>();
      row.declined = d.value("declined", "");
      row.broken = d.value("broken", "");
      row.driver_only = d.value("driver_only", "");
      const auto& same = o_.same_code_everywhere;
      if (row.usable && (d.value("module", "").empty() ||
                         std::find(same.begin(), same.end(), row.key.backend) != same.end()))
        row.elsewhere = runs_in(env.id, d.value("needs", ""), available_ids_);
      r.rows.push_back(std::move(row));
    }
    std::set<std::string> row_tests;
    for (const Row& row : r.rows)
      if (row.elsewhere.empty()) row_tests.insert(row.test_name);

    // The tests to run: the environment's filter, then the selection.
    std::vector<std::string> tests;
    std::ifstream list(r.out / "tests.txt");
    std::string suite;
    for (std::string line; std::getline(list, line);) {
      if (line.empty()) continue;
      const std::string word = line.substr(line.find_first_not_of(' '), line.find("  #") == std::string::npos
                                                                             ? std::string::npos
                                                                             : line.find("  #") - line.find_first_not_of(' '));
      if (line[0] != ' ') {
        suite = word.substr(0, word.size() - 1);  // "Suite." without the dot
        continue;
      }
      const std::string full = suite + "." + word;
      if (!gtest_filter_match(env.gtest_filter, full)) continue;
      const std::string col = column_of(suite, word);
      if (col.empty()) {
        if (sel_.per_backend_only() || !sel_.check("conformance")) continue;
      } else {
        const size_t slash = word.rfind('/');
        if (!sel_.check(col) || slash == std::string::npos || !row_tests.count(word.substr(slash + 1))) continue;
      }
      tests.push_back(full);
    }
    r.tests_total = static_cast<int>(tests.size());

    std::unique_lock lock(r.m);
    // Shards split the list round-robin: the slow cases (every length up to
    // 4096, HMAC) sit next to quick ones, so the shards take alike.
    const size_t n_shards = tests.empty() ? 0 : std::min<size_t>(shards_per_env_, (tests.size() + 9) / 10);
    for (size_t i = 0; i < n_shards; ++i) {
      auto s = std::make_unique<Shard>();
      for (size_t t = i; t < tests.size(); t += n_shards) s->tests.push_back(tests[t]);
      s->log = r.out / fmt::format("conformance-{}.log", i);
      s->json = r.out / fmt::format("conformance-{}.json", i);
      s->calls = r.out / fmt::format("calls-{}.jsonl", i);
      r.shards.push_back(std::move(s));
    }
    std::vector<const Row*> fuzzed;
    if (sel_.check("fuzz")) {
      std::set<std::string> seen;
      for (const Row& row : r.rows)
        if (row.elsewhere.empty() && seen.insert(row.key.backend).second) fuzzed.push_back(&row);
    }
    r.fuzz_total = static_cast<int>(fuzzed.size());
    r.pending = static_cast<int>(r.shards.size() + fuzzed.size());
    lock.unlock();
    if (r.pending == 0) {
      finish(r);
      return;
    }
    EnvRun* er = &r;
    for (auto& s : r.shards) {
      Shard* sh = s.get();
      pool_->add([this, er, sh] {
        ++er->active;
        run_shard(*er, *sh);
        --er->active;
        task_done(*er);
      });
    }
    for (const Row* row : fuzzed)
      pool_->add([this, er, row] {
        ++er->active;
        fuzz_one(*er, *row);
        --er->active;
        task_done(*er);
      });
  }

  std::vector<std::string> conformance_argv(const Environment& env) const {
    std::vector<std::string> argv = env.launcher;
    argv.push_back((env.build / "conformance" / "conformance_tests").string());
    return argv;
  }

  // A test that kills its process (a module's SIGSEGV, SIGILL or abort)
  // fails alone, with how it died: the log tells which tests finished (their
  // outcomes stand) and which one never did, and the shard goes on from
  // there in a new process, so every other cell is still decided by its own
  // tests, at no more than one extra process per crash.
  void run_shard(EnvRun& r, Shard& s) {
    auto vars = r.env->vars;
    vars.emplace_back("LOCKSTEP_CALLS", s.calls.string());
    vars.emplace_back("LOCKSTEP_EXPECTED_CACHE", (out_root_ / "expected").string());
    std::vector<std::string> pending = s.tests;
    std::vector<TestOutcome> before;  // decided by processes that died later
    SuiteRun run;
    for (int attempt = 0;; ++attempt) {
      std::string filter;
      for (const std::string& t : pending) filter += (filter.empty() ? "" : ":") + t;
      const fs::path log = attempt == 0 ? s.log : fs::path(s.log.string() + fmt::format(".rerun-{}", attempt));
      run = run_gtest(conformance_argv(*r.env), {"--gtest_filter=" + filter}, vars, s.json.string(), log.string());
      if (run.error.empty()) break;
      DeadRun dead = read_dead_run(log);
      const auto it = std::find(pending.begin(), pending.end(), dead.unfinished);
      if (dead.unfinished.empty() || it == pending.end()) break;  // not one test's doing: the shard fails
      const size_t dot = dead.unfinished.find('.');
      dead.finished.push_back({dead.unfinished.substr(0, dot), dead.unfinished.substr(dot + 1),
                               TestOutcome::kFailed,
                               fmt::format("crashed: {}; the suite process died in this test, its log: {}",
                                           how_it_died(run.exit_status), log.string()),
                               "", ""});
      for (const TestOutcome& t : dead.finished) {
        const auto done = std::find(pending.begin(), pending.end(), t.suite + "." + t.name);
        if (done != pending.end()) pending.erase(done);
      }
      before.insert(before.end(), dead.finished.begin(), dead.finished.end());
      if (pending.empty()) {
        run = SuiteRun{};
        break;
      }
    }
    if (run.error.empty()) run.tests.insert(run.tests.begin(), before.begin(), before.end());
    std::lock_guard lock(r.m);
    s.run = std::move(run);
    s.done = true;
  }

  // The fuzz column: one backend alone (LOCKSTEP_FUZZ_BACKEND) through its
  // family's harness: the committed corpus and a fixed number of random
  // programs, with the environment's replay driver.
  void fuzz_one(EnvRun& r, const Row& row) {
    const Environment& env = *r.env;
    const std::string& backend = row.key.backend;
    const std::string family = backend.substr(0, backend.find('/'));
    const std::string harness = fuzz_harness_for(family);
    Cell cell;
    if (harness.empty()) {
      cell = {Status::kFail, "no fuzz harness covers the " + family + " family"};
    } else if (!row.driver_only.empty()) {
      cell = {Status::kSkip, row.driver_only};
    } else if (!row.usable) {
      // As the suites do: a machine meant to cover everything may not skip.
      const char* all = std::getenv("LOCKSTEP_REQUIRE_ALL");
      cell = {all && std::string(all) == "1" ? Status::kFail : Status::kSkip, "needs " + row.missing};
    } else {
      const std::string impl = backend.substr(backend.find('/') + 1);
      const fs::path log = r.out / ("fuzz-" + harness + "-" + impl + ".log");
      const fs::path corpus = fs::path(LOCKSTEP_SOURCE_DIR) / "fuzz" / "corpus" / harness;
      std::vector<std::string> argv = env.launcher;
      argv.push_back((env.build / "fuzz" / ("fuzz_" + harness + "_replay")).string());
      for (const std::string& a : {std::string("--runs"), std::to_string(env.fuzz_runs), std::string("--seed"),
                                   std::string("1"), corpus.string()})
        argv.push_back(a);
      auto vars = env.vars;
      vars.emplace_back("LOCKSTEP_FUZZ_BACKEND", backend);
      const Clock::time_point started = Clock::now();
      const ProcessResult pr = run_process(argv, vars, log.string());
      const double took = std::chrono::duration<double>(Clock::now() - started).count();
      if (!pr.error.empty()) {
        cell = {Status::kFail, pr.error};
      } else if (pr.status != 0) {
        // The harness's first line names the mismatch.
        std::ifstream in(log);
        std::string line, signature, sanitizer;
        while (std::getline(in, line)) {
          if (line.starts_with("lockstep: ")) {
            signature = line;
            break;
          }
          // Under the sanitizers a fault is their report and exit status 1,
          // not a signal.
          if (!sanitizer.empty()) continue;
          if (const size_t at = line.find("ERROR: AddressSanitizer: "); at != std::string::npos)
            sanitizer = line.substr(at + 7);
          else if (line.find(": runtime error: ") != std::string::npos)
            sanitizer = "UBSan: " + line;
        }
        const std::string how = pr.status < 0          ? "crashed: " + how_it_died(pr.status)
                                : !sanitizer.empty() ? "crashed: " + sanitizer
                                                     : fmt::format("exit {}", pr.status);
        cell = {Status::kFail, (signature.empty() ? how : signature) + "; see " + log.string()};
        cell.reproduce = command_line(vars, argv);
      } else {
        cell = {Status::kPass, fmt::format("corpus + {} random programs", env.fuzz_runs)};
      }
      cell.seconds = took;
    }
    std::lock_guard lock(r.m);
    r.fuzz[backend] = std::move(cell);
    ++r.fuzz_done;
  }

  void task_done(EnvRun& r) {
    if (--r.pending == 0) finish(r);
  }

  // Tabulates a finished environment and prints its matrix. The printing
  // happens outside the environment's lock, which the status line takes.
  void finish(EnvRun& r) {
    std::string text;
    {
      std::lock_guard lock(r.m);
      text = tabulate(r);
    }
    progress_->print(text);
  }

  std::string tabulate(EnvRun& r) {
    const Environment& env = *r.env;
    EnvReport& rep = r.report;
    rep.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    if (r.description.is_null()) {
      r.phase = 2;
      return fmt::format("\n== {}\n   {}({})\n", env.name, status_name(rep.status.status), rep.status.detail);
    }
    if (r.rows.empty() && r.shards.empty()) {
      // Scoped away: not a result, so neither a cell nor a pass.
      rep.not_selected = true;
      rep.status = {Status::kSkip, "nothing selected runs here"};
      r.phase = 2;
      return fmt::format("\n== {}\n   nothing selected runs here\n", env.name);
    }
    rep.ran = true;
    rep.description = r.description;
    const nlohmann::json& cpu = r.description["cpu"];
    rep.provenance = {{"environment", env.name},
                      {"emulator", !env.launcher.empty() ? command_line({}, env.launcher)
                                   : r.emulator_version == "none" ? "none (native)"
                                                                  : command_line(env.vars, {})},
                      {"emulator_version", r.emulator_version},
                      {"cpu_detected", cpu.value("detected", "")},
                      {"cpu_effective", cpu.value("effective", "")},
                      {"cpu_emulated", cpu.value("emulated", "")},
                      {"seed", r.description.value("seed", "")}};
    for (const std::string& c : check_names())
      if (sel_.check(c)) rep.matrix.add_column(c);
    for (const Row& row : r.rows) rep.matrix.add_row(row.key);

    // Every shard's outcomes; a shard that did not report fails its tests.
    std::vector<TestOutcome> outcomes;
    CellCalls calls;
    bool unexplained_exit = false;
    for (const auto& s : r.shards) {
      if (!s->run.error.empty()) {
        for (const std::string& t : s->tests) {
          const size_t dot = t.find('.');
          outcomes.push_back({t.substr(0, dot), t.substr(dot + 1), TestOutcome::kFailed, s->run.error, "", ""});
        }
        continue;
      }
      outcomes.insert(outcomes.end(), s->run.tests.begin(), s->run.tests.end());
      const bool any_failed = std::any_of(s->run.tests.begin(), s->run.tests.end(),
                                          [](const TestOutcome& t) { return t.result == TestOutcome::kFailed; });
      unexplained_exit |= s->run.exit_status != 0 && !any_failed;
      calls.read(s->calls);
    }
    // The KUnit suites' KTAP, one document per environment.
    r.kunit_suites = write_ktap(r.out / "kunit.ktap", outcomes);
    std::map<std::pair<std::string, std::string>, Tally> per_cell;  // (test name suffix, column)
    std::map<std::string, Tally> other;                             // suite -> tally
    std::map<std::pair<std::string, std::string>, std::string> first_failing_test;
    const std::vector<std::string> argv = conformance_argv(env);
    for (const TestOutcome& t : outcomes) {
      const std::string col = column_of(t.suite, t.name);
      const size_t slash = t.name.rfind('/');
      if (col.empty() || slash == std::string::npos) {
        other[t.suite].add(t);
      } else {
        const auto key = std::make_pair(t.name.substr(slash + 1), col);
        per_cell[key].add(t);
        calls.attribute(key.first, col, t.suite + "." + t.name);
        if (t.result == TestOutcome::kFailed && !first_failing_test.count(key))
          first_failing_test[key] = t.suite + "." + t.name;
      }
      if (t.result == TestOutcome::kFailed) {
        std::vector<std::string> rerun = argv;
        rerun.push_back("--gtest_filter=" + t.suite + "." + t.name);
        rep.failed_tests.push_back({t, command_line(env.vars, rerun)});
      }
    }
    for (const Row& row : r.rows) {
      const nlohmann::json& prov = rep.provenance;
      for (const std::string& col : rep.matrix.columns()) {
        Cell cell;
        if (!row.elsewhere.empty()) {
          cell = {Status::kSkip, fmt::format("the same code under the same emulator runs in {}, the lowest "
                                             "model of the run with its needs: its cells stand for this one",
                                             row.elsewhere)};
          cell.provenance = rep.provenance;
          rep.matrix.set(row.key, col, std::move(cell));
          continue;
        }
        if (col == "fuzz") {
          cell = r.fuzz.count(row.key.backend) ? r.fuzz[row.key.backend]
                                               : Cell{Status::kFail, "the fuzz check did not run"};
        } else {
          auto it = per_cell.find({row.test_name, col});
          // Every compiled backend is instantiated; a row no test ran for
          // is a bug, unless the environment leaves its tests out.
          cell = it == per_cell.end() ? Cell{Status::kFail, "no " + col + " test ran for " + row.test_name}
                                      : it->second.cell(row.usable ? "" : "needs " + row.missing);
          if (cell.status == Status::kFail && first_failing_test.count({row.test_name, col})) {
            std::vector<std::string> rerun = argv;
            rerun.push_back("--gtest_filter=" + first_failing_test[{row.test_name, col}]);
            cell.reproduce = command_line(env.vars, rerun);
          }
        }
        // A row its backend declined (a module without 12 rounds) is SKIP
        // with that reason in every column, the per-backend fuzz one too,
        // and does not count against the backend's coverage.
        if (!row.declined.empty() && (col == "fuzz" || cell.status != Status::kFail))
          cell = {Status::kSkip, row.declined};
        // A backend its module found broken: the module's words, every column.
        if (!row.broken.empty()) cell = {Status::kFail, row.broken};
        explain_unchecked_call(o_.unchecked_calls, row.key.backend, cpu.value("effective", ""), cell);
        cell.provenance = prov;
        // The fuzz check's driver counts no calls: its cell claims none.
        if (col != "fuzz") calls.describe(row.test_name, col, row.key.backend, cell.provenance);
        if (!row.declined.empty()) cell.provenance["declined"] = true;
        if (r.selftest && r.selftest->status == Status::kFail) cell = under_failed_selftest(cell, *r.selftest);
        apply_expectations(env, row.key, col, cell);
        rep.matrix.set(row.key, col, std::move(cell));
      }
    }
    if (r.selftest) rep.matrix.add_note("emulator self-test", *r.selftest);
    for (const auto& [suite, t] : other) rep.matrix.add_note("conformance_tests: " + suite, t.cell(""));
    if (unexplained_exit)
      rep.matrix.add_note("conformance_tests",
                          {Status::kFail, fmt::format("a shard exited non-zero although no test failed; see {}",
                                                      r.out.string())});
    rep.status = {rep.matrix.any_fail() ? Status::kFail : Status::kPass, ""};
    r.phase = 2;
    return render(r);
  }

  // A cell the --expect manifest lists must PASS here.
  void apply_expectations(const Environment& env, const RowKey& row, const std::string& col, Cell& cell) {
    if (!expect_) return;
    std::lock_guard lock(expect_m_);
    for (Expectation& e : *expect_) {
      if (!glob_match(e.env, env.id) || !glob_match(e.backend, row.backend) || !glob_match(e.check, col)) continue;
      ++e.matched;
      if (cell.status == Status::kSkip)
        cell = {Status::kFail, fmt::format("expected to PASS here ({}), but SKIP({})", e.where, cell.detail),
                cell.reproduce, cell.provenance};
    }
  }

  std::string render(const EnvRun& r) const {
    const EnvReport& rep = r.report;
    const nlohmann::json& cpu = rep.description["cpu"];
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
    out += "\n" + rep.matrix.to_text();
    if (o_.verbose)
      for (const auto& s : r.shards) {
        std::ifstream log(s->log);
        out += std::string(std::istreambuf_iterator<char>(log), {});
      }
    return out;
  }

  const RunOptions& o_;
  const Selection sel_;
  std::vector<Expectation>* expect_;
  std::mutex expect_m_;
  const fs::path out_root_;
  std::vector<std::unique_ptr<EnvRun>> runs_;
  size_t shards_per_env_ = 1;
  std::vector<std::string> available_ids_;  // the environments of this run that can run
  TaskPool* pool_ = nullptr;
  Progress* progress_ = nullptr;
};

struct Counts {
  int pass = 0, fail = 0, skip = 0, warn = 0;
};

Counts count_cells(const std::vector<EnvReport>& reports) {
  Counts c;
  for (const EnvReport& e : reports) {
    if (e.not_selected) continue;
    if (!e.ran) {
      (e.status.status == Status::kFail ? c.fail : c.skip) += 1;
      continue;
    }
    for (const RowKey& r : e.matrix.rows())
      for (const std::string& col : e.matrix.columns()) {
        const Status s = e.matrix.get(r, col).status;
        (s == Status::kPass ? c.pass : s == Status::kFail ? c.fail : s == Status::kWarn ? c.warn : c.skip) += 1;
      }
  }
  return c;
}

// Per backend, the environments where every one of its cells passed (rows
// it declined aside); a backend that passed nowhere is NOT COVERED.
std::string coverage(const std::vector<EnvReport>& reports) {
  std::map<std::string, std::vector<std::string>> passed;
  std::map<std::string, std::string> why_not;
  for (const EnvReport& e : reports) {
    if (!e.ran) continue;
    // Per backend: no cell failed or skipped, and some cell passed (a
    // backend that declined every row here, such as a driver its glue did
    // not register, is not covered by this environment).
    std::map<std::string, std::pair<bool, bool>> all_pass;  // (nothing failed, something passed)
    for (const RowKey& r : e.matrix.rows()) {
      auto& [ok, any] = all_pass.try_emplace(r.backend, true, false).first->second;
      for (const std::string& col : e.matrix.columns()) {
        const Cell& c = e.matrix.get(r, col);
        if (c.provenance.is_object() && c.provenance.value("declined", false)) {
          if (!why_not.count(r.backend)) why_not[r.backend] = status_name(c.status) + "(" + c.detail + ")";
          continue;
        }
        // A check that does not apply to the row (conformance's skip_not_applicable).
        if (c.status == Status::kSkip && c.detail.starts_with("not applicable:")) continue;
        if (c.status != Status::kPass && c.status != Status::kWarn) {
          ok = false;
          if (!why_not.count(r.backend)) why_not[r.backend] = status_name(c.status) + "(" + c.detail + ")";
        } else {
          any = true;
        }
      }
    }
    for (const auto& [b, verdict] : all_pass) {
      auto& list = passed[b];
      if (verdict.first && verdict.second) list.push_back(e.id);
    }
  }
  if (passed.empty()) return "";
  size_t width = 0;
  for (const auto& [b, envs] : passed) width = std::max(width, b.size());
  std::string out = "\ncoverage (environments where every cell of the backend passed):\n";
  for (const auto& [b, envs] : passed) {
    std::string list;
    for (const std::string& e : envs) list += (list.empty() ? "" : ", ") + e;
    out += envs.empty() ? fmt::format("  {:<{}}  NOT COVERED: {}\n", b, width, why_not[b])
                        : fmt::format("  {:<{}}  {}\n", b, width, list);
  }
  return out;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) fmt::print(stderr, "lockstep run: cannot write {}\n", path.string());
}

}  // namespace

std::string matrix_json_path(const RunOptions& o) {
  return o.json_out.empty() ? (run_dir(o) / "matrix.json").string() : o.json_out;
}

// A module given for another architecture whose environments the run does
// not select would silently never run: a usage error that says which
// environments would run it.
static int check_module_reach(const Selection& sel) {
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

int cmd_run(const RunOptions& o) {
  std::vector<Environment> all_envs = environments();
  if (!o.build.empty()) {
    // Checked first: every environment it replaces would fail alike.
    const fs::path suite = fs::absolute(o.build) / "conformance" / "conformance_tests";
    if (access(suite.c_str(), X_OK) != 0) {
      fmt::print(stderr, "lockstep run: --build {}: no conformance suite at {} ({})\n", o.build, suite.string(),
                 std::strerror(errno));
      return 2;
    }
    for (Environment& e : all_envs)
      if (e.build == fs::path(LOCKSTEP_BUILD_DIR)) e.build = fs::absolute(o.build);
  }
  std::vector<std::string> ids;
  for (const Environment& e : all_envs) ids.push_back(e.id);

  if (o.list_envs) {
    for (const Environment& e : all_envs)
      fmt::print("{:<28} {:<52} {}\n", e.id, e.name, e.unavailable.empty() ? "available" : "SKIP: " + e.unavailable);
    return 0;
  }

  // Usage errors, before anything runs.
  Selection sel{o.envs, o.families, o.backends, o.checks};
  for (const std::string& p : o.envs)
    if (std::none_of(ids.begin(), ids.end(), [&](const std::string& id) { return glob_match(p, id); })) {
      std::string known;
      for (const std::string& id : ids) known += " " + id;
      // The kernel-glue environments exist only beside such a module.
      const std::string simd =
          p.starts_with("simd-") && std::none_of(ids.begin(), ids.end(), [](const std::string& id) {
            return id.starts_with("simd-");
          })
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
  std::optional<std::vector<Expectation>> expect;
  if (!o.expect.empty()) {
    std::string error;
    expect = read_expectations(o.expect, ids, error);
    if (!expect) {
      fmt::print(stderr, "lockstep run: {}\n", error);
      return 1;
    }
  }

  std::vector<Environment> envs;
  for (const Environment& e : all_envs)
    if (sel.env(e.id)) envs.push_back(e);
  // Without --env, a model that executes what an earlier one of its
  // emulator does runs the same code paths again: said, and left out.
  if (o.envs.empty())
    for (Environment& e : envs)
      if (!e.same_as.empty() && e.unavailable.empty())
        e.unavailable = fmt::format("the features of {} under the same emulator: its cells stand for these "
                                    "(--env {} runs it)",
                                    e.same_as, e.id);
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
  // A module of a tree that did not build is a row of every report, counted.
  for (const RunOptions::NotBuilt& n : o.not_built) {
    EnvReport r;
    r.id = "build:" + n.backend;
    r.name = "the build of " + n.backend;
    r.status = {n.broken_by_series ? Status::kFail : Status::kSkip,
                (n.broken_by_series ? "the series breaks its build: " : "not built: ") + n.why};
    fmt::print("\n== {}\n   {}({})\n", r.name, status_name(r.status.status), r.status.detail.substr(0, r.status.detail.find('\n')));
    reports.push_back(std::move(r));
  }
  // A CI runner's cancel, a kill: the children are gone, the reports say
  // what ran before it, and that the run did not finish.
  const int cancelled = cancel_signal();
  const std::string cancel_note =
      cancelled ? fmt::format("cancelled by {}: the cells that had not finished are failed or missing",
                              cancelled == SIGINT ? "SIGINT" : "SIGTERM")
                : "";

  bool failed = std::any_of(reports.begin(), reports.end(),
                            [](const EnvReport& e) { return e.status.status == Status::kFail; });
  std::string problems, usage;
  // A --backend pattern that matched no row anywhere is a typo, not a pass
  // (the backends `tree` built are a scope, not a user's patterns).
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

  fmt::print("{}", coverage(reports));
  const Counts c = count_cells(reports);
  const std::string summary = fmt::format("{} passed, {} failed, {} skipped{}", c.pass, c.fail, c.skip,
                                          c.warn ? fmt::format(", {} warned", c.warn) : "");
  fmt::print("\ncells: {} (in {})\n", summary,
             format_duration(std::chrono::duration<double>(Clock::now() - start).count()));

  nlohmann::json envs_json = nlohmann::json::array();
  for (const EnvReport& e : reports) {
    nlohmann::json j = {{"environment", e.name}, {"id", e.id}, {"status", status_name(e.status.status)},
                        {"seconds", e.seconds}};
    if (!e.ran) {
      j["detail"] = e.status.detail;
    } else {
      j["cpu"] = e.description["cpu"];
      j["selected"] = e.description["selected"];
      j["kernel_selected"] = e.description.value("kernel_selected", nlohmann::json::array());
      j["provenance"] = e.provenance;
      j["matrix"] = e.matrix.to_json();
      name_row_modules(j["matrix"], e.description);
      nlohmann::json ft = nlohmann::json::array();
      for (const FailedTest& t : e.failed_tests)
        ft.push_back({{"test", t.outcome.suite + "." + t.outcome.name}, {"reproduce", t.reproduce}});
      j["failed_tests"] = ft;
    }
    envs_json.push_back(j);
  }
  const fs::path json_path = matrix_json_path(o);
  nlohmann::json matrix{{"environments", envs_json},
                        {"failed", failed || !problems.empty() || !usage.empty() || cancelled},
                        {"cells", summary}};
  if (cancelled) matrix["cancelled"] = cancel_note;
  write_file(json_path, matrix.dump(2) + "\n");
  fmt::print("matrix written to {}\n", json_path.string());
  if (!o.junit_out.empty()) {
    write_file(o.junit_out, junit_xml(reports) + (cancelled ? "<!-- " + cancel_note + " -->\n" : ""));
    fmt::print("JUnit XML written to {}\n", o.junit_out);
  }
  if (!o.ktap_out.empty()) {
    write_file(o.ktap_out, ktap(reports) + (cancelled ? "# " + cancel_note + "\n" : ""));
    fmt::print("KTAP written to {}\n", o.ktap_out);
  }
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

}  // namespace lockstep::cli
