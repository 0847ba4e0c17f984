// Running `lockstep run`'s environments: each is described, planned into
// tasks (shards of its tests, one fuzz check per backend) and tabulated when
// its last task ends, all on a pool of one worker per core, so that
// independent environments use every core. An environment's matrix is
// printed as soon as it is complete.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "environments.h"
#include "progress.h"
#include "run/env_run.h"
#include "run/run_select.h"
#include "run/tabulate.h"
#include "task_pool.h"

namespace lockstep::cli {

// run_dir is where a run keeps its logs: --out, else the build's run/ folder.
std::filesystem::path run_dir(const RunOptions& o);

class Runner {
 public:
  Runner(const RunOptions& o, Selection sel, std::vector<Expectation>* expect);

  // run runs every environment of `envs` and returns their reports in order.
  std::vector<EnvReport> run(const std::vector<Environment>& envs);

 private:
  std::string status();
  void finish_unavailable(EnvRun& r);
  void describe(EnvRun& r);
  void queue(EnvRun& r, const std::vector<const Row*>& fuzzed);
  void task(EnvRun& r, const std::function<void()>& work);
  void finish(EnvRun& r);

  const RunOptions& o_;
  const Selection sel_;
  Expectations expect_;
  const std::filesystem::path out_root_;
  std::vector<std::unique_ptr<EnvRun>> runs_;
  size_t shards_per_env_ = 1;
  std::vector<std::string> available_ids_;  // the environments of this run that can run
  TaskPool* pool_ = nullptr;
  Progress* progress_ = nullptr;
};

}  // namespace lockstep::cli
