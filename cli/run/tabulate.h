// Collecting the results of one environment of `lockstep run`: its shards'
// outcomes and fuzz cells into its matrix, and the text printed for it.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "commands.h"
#include "run/env_run.h"
#include "run/run_select.h"

namespace lockstep::cli {

// Expectations holds the --expect manifest: cells that must PASS where they
// run. Environments are tabulated on several threads; `apply` counts each
// entry's matches.
class Expectations {
 public:
  explicit Expectations(std::vector<Expectation>* list) : list_(list) {}
  // apply makes a SKIP cell the manifest lists a FAIL.
  void apply(const Environment& env, const RowKey& row, const std::string& col, Cell& cell);

 private:
  std::vector<Expectation>* list_;
  std::mutex m_;
};

// tabulate fills r.report from the environment's finished tasks (or from
// why it could not start) and returns its text: a header that says what
// ran where, and the matrix. The caller holds r.m.
std::string tabulate(EnvRun& r, const Selection& sel, const RunOptions& o, Expectations& expect);

}  // namespace lockstep::cli
