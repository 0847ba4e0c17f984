// The fuzz column's cell of one backend in one environment.
#pragma once

#include <filesystem>

#include "environments.h"
#include "run/env_run.h"
#include "run/matrix.h"

namespace lockstep::cli {

// fuzz_cell runs one backend alone (LOCKSTEP_FUZZ_BACKEND) through its
// family's harness: the committed corpus and a fixed number of random
// programs, with the environment's replay driver, logging under `out`.
Cell fuzz_cell(const Environment& env, const Row& row, const std::filesystem::path& out);

}  // namespace lockstep::cli
