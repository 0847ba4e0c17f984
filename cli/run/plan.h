// Planning one environment of `lockstep run`: what its conformance_tests
// says it has (rows, CPU, tests), which of that the selection keeps, and
// how the work is cut into tasks (shards of tests, one fuzz check per
// backend).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "environments.h"
#include "run/env_run.h"
#include "run/run_select.h"

namespace lockstep::cli {

// describe_environment lists the environment's tests into r.out/tests.txt
// and reads its description (describe.json) into r.description. It returns
// "" or why the suite could not describe itself.
std::string describe_environment(EnvRun& r);

// emulator_version is the emulator in front of the binaries, for
// provenance: QEMU and SDE say their version (asked into `out`); the
// in-process trap emulators are part of this build.
std::string emulator_version(const Environment& env, const std::filesystem::path& out);

// select_rows is the described rows the environment and the selection keep,
// each with the model it runs in instead where another of the run's
// environments runs the same code (`available`: the run's environments
// that can run).
std::vector<Row> select_rows(const EnvRun& r, const Selection& sel, const RunOptions& o,
                             const std::vector<std::string>& available);

// select_tests is the full names of the tests to run: the environment's
// filter, then the selection's checks over the rows that run here.
std::vector<std::string> select_tests(const EnvRun& r, const Selection& sel);

// make_shards cuts `tests` into at most `max_shards` shards of at least ten
// tests, round-robin: the slow cases (every length up to 4096, HMAC) sit
// next to quick ones, so the shards take alike.
std::vector<std::unique_ptr<Shard>> make_shards(const std::vector<std::string>& tests, size_t max_shards,
                                                const std::filesystem::path& out);

// fuzzed_rows is one row per backend that runs here, where the fuzz check
// is selected.
std::vector<const Row*> fuzzed_rows(const std::vector<Row>& rows, const Selection& sel);

}  // namespace lockstep::cli
