// Emulators prove themselves where they are used: a trap environment of
// `lockstep run` starts with its emulator's own GoogleTest binary (each
// instruction against the oracle, the registers after it), shown as a cell
// of that environment. A failing self-test fails every cell of the
// environment with its reason: passing backends prove nothing on an
// emulator that gets an instruction wrong.
#pragma once

#include <filesystem>
#include <string>

#include "environments.h"
#include "run/matrix.h"

namespace lockstep::cli {

// run_emulator_selftest runs env.selftest (relative to env.build) with the
// environment's variables, its log and report under `out`, and returns the
// cell: PASS with counts, FAIL naming the first failing test, or SKIP when
// the binary is not there (a build without it, an emulator without one).
Cell run_emulator_selftest(const Environment& env, const std::filesystem::path& out);

// under_failed_selftest is what a cell of the environment becomes when the
// self-test failed: a FAIL that says why, keeping what the cell said.
Cell under_failed_selftest(const Cell& own, const Cell& selftest);

}  // namespace lockstep::cli
