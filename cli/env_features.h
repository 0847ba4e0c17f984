// The CPU features a LOCKSTEP_CPU mask asks for in each environment, judged
// before anything runs there. A `+feature` is declared to dispatch, so code
// that needs it is picked; where neither the CPU (the host's, or the QEMU
// or SDE model's) nor a trap emulator of the environment executes it, that
// code faults with SIGILL in the middle of the run. The trap environments
// append their own mask to the user's (environments.cpp), and the children
// inherit LOCKSTEP_CPU_EMULATED_BY, which vouches there for emulators they
// do not install: `LOCKSTEP_CPU=+sha512 ... run --env phe-trap` is such a
// combination, refused up front.
#pragma once

#include <string>
#include <vector>

#include "environments.h"

namespace lockstep::cli {

// env_feature_problem says why the mask `e` hands its children cannot run
// there ("declares sha512, which ..."), naming the variable and its value;
// "" when it can, or when the user vouches for an outside emulator
// (LOCKSTEP_CPU_EMULATED_BY=sde or qemu) in front of lockstep itself.
std::string env_feature_problem(const Environment& e);

// check_env_features prints, as `who`, the problem of each available
// environment of `envs` and returns 2; 0 when there is none.
int check_env_features(const std::vector<Environment>& envs, const char* who);

}  // namespace lockstep::cli
