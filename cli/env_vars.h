// The LOCKSTEP_* variables a user sets, checked before any command runs:
// one that would be read as a default (LOCKSTEP_SEED=garbage as seed 0,
// LOCKSTEP_REQUIRE_ALL=yes as off), or that stops a child halfway through
// a run, is a usage error naming the variable and its value.
#pragma once

namespace lockstep::cli {

// check_lockstep_variables checks LOCKSTEP_CPU (as impl/cpu reads it),
// LOCKSTEP_SEED, LOCKSTEP_REQUIRE_ALL, LOCKSTEP_TRAP_PATCH,
// LOCKSTEP_CPU_MODEL and LOCKSTEP_KERNEL_SIMD. It prints each that is
// wrong and returns 2; 0 when every one is unset or good. Call it after
// check_emulation_environment (emulators.h).
int check_lockstep_variables();

}  // namespace lockstep::cli
