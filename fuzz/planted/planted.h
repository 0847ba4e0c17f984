// Deliberately broken SHA-256 backends, linked only into the planted fuzz
// binaries, to show that the fuzzer finds each kind of defect from the seed
// corpus. Each wraps sha256/generic and breaks one thing.
#pragma once

#include "sha256/sha256.h"

namespace lockstep::planted {

// The hook that impl/sha256/registry.cpp looks for.
#define LOCKSTEP_PLANT_SHA256_BACKEND(descriptor)                                       \
  namespace lockstep::sha2 {                                                            \
  extern const HashBackend<Sha256Family>* const g_sha256_planted_backend;              \
  const HashBackend<Sha256Family>* const g_sha256_planted_backend = &(descriptor);     \
  }                                                                                     \
  static_assert(true, "requires a semicolon")

}  // namespace lockstep::planted
