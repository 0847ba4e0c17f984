// One shard of an environment's conformance tests, run to the end even when
// a test kills its process.
#pragma once

#include <filesystem>
#include <string>

#include "environments.h"
#include "run/env_run.h"
#include "run/gtest_results.h"

namespace lockstep::cli {

// run_shard runs the shard's tests in `env` and returns their outcomes. A
// test that kills its process (a module's SIGSEGV, SIGILL or abort) fails
// alone, with how it died: the log tells which tests finished (their
// outcomes stand) and which one never did, and the shard goes on from there
// in a new process, so every other cell is still decided by its own tests,
// at no more than one extra process per crash. `expected_cache` is the
// run's cache of expected values (conformance/expected_cache.h).
SuiteRun run_shard(const Environment& env, const Shard& s, const std::filesystem::path& expected_cache);

// how_it_died says how a process that wrote no report ended (a negative
// status is the signal that killed it).
std::string how_it_died(int exit_status);

}  // namespace lockstep::cli
