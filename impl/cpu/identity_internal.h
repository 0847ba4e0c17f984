// Between identity.cpp and cpu.cpp's state(): the identity in effect.
#pragma once

#include <string>

#include "cpu/cpu.h"

namespace lockstep::cpu {

struct ResolvedIdentity {
  CpuId id;
  std::string by;  // "" for the host's
};

// resolve_identity: the identity an emulator declared, else
// LOCKSTEP_CPU_IDENTITY's (a bad value exits 2, named), else `host`.
ResolvedIdentity resolve_identity(const CpuId& host);

// identity_resolved: state() has been built (declarations come too late).
bool identity_resolved();

}  // namespace lockstep::cpu
