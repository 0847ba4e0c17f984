// What the dispatch checks share: the choice worked out from the
// descriptors alone, the feature masks a family's choice can depend on,
// calls through the default API, and which backends ran them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "bytes.h"
#include "catalog.h"

namespace lockstep::conformance {

// feature_names prints a set for messages: "(none)" when empty.
std::string feature_names(cpu::FeatureSet s);

// expected_default is the choice as the descriptors state it: the first of
// lockstep's own backends in registry order whose needs are all in
// `features` and that avoids none of them. A module's backends are checked,
// never defaulted to.
const Backend* expected_default(const catalog::Family& f, cpu::FeatureSet features);

// dispatch_masks lists the feature sets a family's choice is tried under:
// every subset of the features its backends need or avoid (sampled past 12
// of them), as a CPU would have them (with their prerequisites), then each
// backend's exact needs, then the real set.
std::vector<cpu::FeatureSet> dispatch_masks(const catalog::Family& f, uint64_t seed);

// Probe is one call through a family's default API (backend nullptr) and
// the answer it must give.
struct Probe {
  std::string algorithm;  // "sha224"
  std::string what;       // "sha224 digest"
  std::function<Bytes()> run;
  Bytes want;
};

// probes_of lists what the dispatch checks call for each algorithm of a
// family: a digest (and finup_2x where the algorithm has it), or a ChaCha
// call. `msg` must outlive the probes.
std::vector<Probe> probes_of(const catalog::Family& f, const Bytes& msg);

// CallCounts is every backend of every family with its call count.
using CallCounts = std::vector<std::pair<const Backend*, uint64_t>>;
CallCounts call_counts();

// ran_only checks that between `before` and now, `expected` was called and
// no other backend was.
testing::AssertionResult ran_only(const CallCounts& before, const Backend* expected);

}  // namespace lockstep::conformance
