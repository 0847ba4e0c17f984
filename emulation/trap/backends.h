// Which backends a trap emulator is for: those that need a feature it
// provides, as impl/catalog.h describes them. `lockstep run` scopes its trap
// environments with this, and trap_host_test holds the ctest filters that
// CMake makes by convention (CMakeLists.txt) to it.
#pragma once

#include <string>
#include <vector>

#include "backend.h"
#include "trap/trap.h"

namespace lockstep::trap {

// backends_for lists, family by family, the compiled backends whose needs
// include a feature `e` provides.
std::vector<const Backend*> backends_for(const Emulator& e);

// backend_impls_for names those backends without their family, each once:
// {"x86-phe"} for PHE, which serves sha256 and sha512.
std::vector<std::string> backend_impls_for(const Emulator& e);

// gtest_filter_for is the GoogleTest filter that selects their conformance
// cases, whose names end in catalog::test_name(): "*x86_phe*".
std::string gtest_filter_for(const Emulator& e);

}  // namespace lockstep::trap
