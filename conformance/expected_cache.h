// Expected values too dear to compute in every test process of a run (the
// oracle's digest of a 2 GiB message takes seconds, and a run starts dozens
// of processes: shards, environments, the reruns after a crash): computed
// once by the oracle, kept for the run's other processes in the folder
// LOCKSTEP_EXPECTED_CACHE names (`lockstep run` makes one per run, empty),
// and computed here where none is named or the file is not a valid answer.
#pragma once

#include <functional>
#include <string>

#include "bytes.h"

namespace lockstep::conformance {

// cached_expected returns the `size`-byte value `key` names ("sha256-
// 2147483779-seed7"), read from the run's folder or made by `compute`
// and written there for the others.
Bytes cached_expected(const std::string& key, size_t size, const std::function<Bytes()>& compute);

}  // namespace lockstep::conformance
