// `lockstep fuzz --env ID`: the harness binary to run in one of `lockstep
// run`'s environments (environments.h), the driver and why, from the same
// list run uses.
#pragma once

#include <string>
#include <vector>

#include "commands.h"
#include "environments.h"

namespace lockstep::cli {

struct FuzzPlan {
  Environment env;
  std::string binary;       // the harness, in the environment's build or the fuzz build
  bool libfuzzer = false;   // else the replay-and-random driver
  std::string driver;       // for the first line: "libFuzzer", "the replay driver (why)"
};

// plan_fuzz looks up o.env and picks the binary. Returns 0 with `out` set,
// or, after saying why on standard error, 2 for an unknown id or a module
// of the wrong architecture, 1 for an environment this host cannot run or
// a build that is missing.
int plan_fuzz(const FuzzOptions& o, FuzzPlan& out);

}  // namespace lockstep::cli
