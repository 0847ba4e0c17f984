#include "run/runner.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "run/emulator_selftest.h"
#include "run/fuzz_cell.h"
#include "run/gtest_log.h"
#include "run/plan.h"
#include "run/shard.h"

namespace lockstep::cli {

namespace fs = std::filesystem;

fs::path run_dir(const RunOptions& o) {
  return o.out.empty() ? fs::path(LOCKSTEP_BUILD_DIR) / "run" : fs::absolute(o.out);
}

Runner::Runner(const RunOptions& o, Selection sel, std::vector<Expectation>* expect)
    : o_(o), sel_(std::move(sel)), expect_(expect), out_root_(run_dir(o)) {}

std::vector<EnvReport> Runner::run(const std::vector<Environment>& envs) {
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
      pool.add([this, er] { task(*er, [this, er] { describe(*er); }); });
    }
    pool.wait();
    pool_ = nullptr;
    progress_ = nullptr;
  }
  std::vector<EnvReport> out;
  for (auto& r : runs_) out.push_back(std::move(r->report));
  return out;
}

// The progress line: environments done and waiting, and the running ones'
// tests and fuzz checks.
std::string Runner::status() {
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

void Runner::finish_unavailable(EnvRun& r) {
  // A machine meant to cover everything may not lack an environment.
  r.report.status = {unavailable_status(), r.env->unavailable};
  r.phase = 2;
  progress_->print(fmt::format("\n== {}\n   {}({})\n", r.env->name, status_name(r.report.status.status),
                               r.report.status.detail));
}

// task runs one piece of an environment's work, counted as running for the
// progress line.
void Runner::task(EnvRun& r, const std::function<void()>& work) {
  ++r.active;
  work();
  --r.active;
}

// describe describes the environment, plans it and queues its tasks.
void Runner::describe(EnvRun& r) {
  r.phase = 1;
  r.start = RunClock::now();
  // Logs of an earlier run (of other shards, say) would only mislead.
  std::error_code ignored;
  fs::remove_all(r.out, ignored);
  fs::create_directories(r.out);
  const Environment& env = *r.env;
  r.emulator_version = emulator_version(env, r.out);
  if (!env.selftest.empty()) r.selftest = run_emulator_selftest(env, r.out);
  if (const std::string error = describe_environment(r); !error.empty()) {
    r.description = nullptr;
    r.report.status = {Status::kFail, error};
    finish(r);
    return;
  }
  r.rows = select_rows(r, sel_, o_, available_ids_);
  const std::vector<std::string> tests = select_tests(r, sel_);
  r.tests_total = static_cast<int>(tests.size());
  std::unique_lock lock(r.m);
  r.shards = make_shards(tests, shards_per_env_, r.out);
  const std::vector<const Row*> fuzzed = fuzzed_rows(r.rows, sel_);
  r.fuzz_total = static_cast<int>(fuzzed.size());
  r.pending = static_cast<int>(r.shards.size() + fuzzed.size());
  lock.unlock();
  if (r.pending == 0) {
    finish(r);
    return;
  }
  queue(r, fuzzed);
}

// queue adds the environment's shards and fuzz checks to the pool; the last
// to end tabulates it.
void Runner::queue(EnvRun& r, const std::vector<const Row*>& fuzzed) {
  EnvRun* er = &r;
  auto done = [this, er] {
    if (--er->pending == 0) finish(*er);
  };
  const fs::path expected = out_root_ / "expected";
  for (auto& s : r.shards) {
    Shard* sh = s.get();
    pool_->add([this, er, sh, expected, done] {
      task(*er, [er, sh, &expected] {
        SuiteRun run = run_shard(*er->env, *sh, expected);
        std::lock_guard lock(er->m);
        sh->run = std::move(run);
        sh->done = true;
      });
      done();
    });
  }
  for (const Row* row : fuzzed)
    pool_->add([this, er, row, done] {
      task(*er, [er, row] {
        Cell cell = fuzz_cell(*er->env, *row, er->out);
        std::lock_guard lock(er->m);
        er->fuzz[row->key.backend] = std::move(cell);
        ++er->fuzz_done;
      });
      done();
    });
}

// finish tabulates a finished environment and prints its matrix. The
// printing happens outside the environment's lock, which the status line
// takes.
void Runner::finish(EnvRun& r) {
  std::string text;
  {
    std::lock_guard lock(r.m);
    text = tabulate(r, sel_, o_, expect_);
  }
  progress_->print(text);
}

}  // namespace lockstep::cli
