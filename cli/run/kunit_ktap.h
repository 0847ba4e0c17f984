// The KTAP of the KUnit suites one environment ran (the kunit column), as
// one document, the way the kernel prints its suites at boot: what the
// kernel's own tools/testing/kunit/kunit_parser.py reads.
#pragma once

#include <filesystem>
#include <vector>

#include "run/gtest_results.h"

namespace lockstep::cli {

// write_ktap writes the suites of `outcomes` (those that recorded KTAP), in
// their order and numbered so, to `file`; returns how many, and writes
// nothing where there are none.
int write_ktap(const std::filesystem::path& file, const std::vector<TestOutcome>& outcomes);

}  // namespace lockstep::cli
