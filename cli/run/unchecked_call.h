// A row whose code calls a function that needs CPU features, chosen with no
// run-time check: U-Boot's arch glue, which its board's Kconfig alone
// selects (CONFIG_ARMV8_CE_SHA512 makes sha512_process call the ARMv8.2
// instructions on every core). Such a row declares no needs, so it runs in
// every CPU model; where the model lacks what the function needs, its
// calls die of SIGILL, which crash isolation reports as a crash of the
// cells. explain_unchecked_call says what that crash is: the glue's defect,
// a Synchronous Abort on a board, not lockstep's.
#pragma once

#include <string>
#include <vector>

#include "commands.h"

namespace lockstep::cli {

struct Cell;  // matrix.h

// UncheckedCall is in commands.h: `tree` finds them, and hands them to run
// in its options.

// explain_unchecked_call rewrites a FAIL `cell` of row `backend` whose
// checks died of SIGILL, in an environment whose effective features
// (space-separated) lack some of a listed call's needs, to name the call:
// "Synchronous Abort: the glue calls F, which needs N, on a core without
// it; U-Boot selects it by Kconfig only (K): <the crash as reported>".
// Any other cell is left as it is.
void explain_unchecked_call(const std::vector<UncheckedCall>& calls, const std::string& backend,
                            const std::string& effective, Cell& cell);

}  // namespace lockstep::cli
