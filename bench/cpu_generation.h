// The CPU generation a run was measured on ("Zen 1", "Zen 5", "Intel"), so
// that a speed target set for some CPUs is judged only on those.
#pragma once

#include <string>

#include "cpu/cpu.h"

namespace lockstep::bench {

// generation names `id` from the table in cpu_generation.cpp: a Zen
// generation by family and model for AMD, "Intel" for any Intel part, ""
// for anything else (a target for named CPUs is then not judged).
std::string generation(const cpu::CpuId& id);

}  // namespace lockstep::bench
