// HashConformance: the kernel's hash-test-template.h cases for every
// (algorithm, backend) pair. The cases are spread over a few files by
// subject (hash_conformance.cpp, hash_reentrancy.cpp, hmac_conformance.cpp,
// oracle_conformance.cpp); hash_conformance.cpp instantiates the suite.
#pragma once

#include "backend_fixture.h"

namespace lockstep::conformance {

class HashConformance : public BackendTest {};

}  // namespace lockstep::conformance
