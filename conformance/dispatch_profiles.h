// The CPUs the dispatch column judges the registries on, and what each
// family must choose there (conformance/dispatch_profiles.json, compiled
// in). Written down by hand on purpose: the other dispatch checks work the
// choice out from the descriptors, so a descriptor that lost a rule would
// move their expectation with it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu.h"

namespace lockstep::conformance {

struct DispatchProfile {
  std::string cpu;  // for people: "Intel Skylake-SP and Cascade Lake (...)"
  cpu::Arch arch = cpu::Arch::kOther;
  cpu::FeatureSet features;  // with every prerequisite added
  std::map<std::string, std::string> select;  // family -> backend name
  std::string source;
};

// parse_dispatch_profiles reads a table in the format of
// conformance/dispatch_profiles.json. On bad input it returns nothing and
// sets `error` to a message naming `file`, the profile and the field.
std::vector<DispatchProfile> parse_dispatch_profiles(std::string_view json, std::string_view file,
                                                     std::string& error);

// dispatch_profiles is the compiled-in table; a table that does not parse
// is a build fault (it prints and aborts).
const std::vector<DispatchProfile>& dispatch_profiles();

}  // namespace lockstep::conformance
