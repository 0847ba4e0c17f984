// The variables conformance_tests acts on, checked before any test runs: a
// LOCKSTEP_SEED that is no number, a LOCKSTEP_REQUIRE_ALL that is neither 0
// nor 1 or a LOCKSTEP_CPU_MODEL that names no model stops the suite with
// status 2, as it stops `lockstep`, instead of running with a default.
#pragma once

namespace lockstep::conformance {

// check_environment prints what is wrong, naming the variable and its
// value, and returns false; true when every variable is unset or good.
bool check_environment();

}  // namespace lockstep::conformance
