// The fields that describe a CPU in lockstep's JSON tables, read one way:
// emulation/cpu_models.json (cpu_models.cpp) and the dispatch profiles
// (conformance/dispatch_profiles.cpp) both name an architecture and the
// features a CPU has. Each reader sets `error` to a message naming `where`
// (the file and the entry) and the field, unless it already holds one: the
// first fault of an entry is the one reported.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "cpu/cpu.h"

namespace lockstep::models {

// string_field returns j[key] as a string, or "" with `error` set.
std::string string_field(const nlohmann::json& j, const char* key, const std::string& where, std::string& error);

// parse_arch reads the value of a field "arch": "x86_64" or "arm64".
std::optional<cpu::Arch> parse_arch(std::string_view name, const std::string& where, std::string& error);

// parse_features reads the value of a field "features", an array of names
// of `arch`'s features, as they are: without prerequisites added.
std::optional<cpu::FeatureSet> parse_features(const nlohmann::json& names, cpu::Arch arch, const std::string& where,
                                              std::string& error);

}  // namespace lockstep::models
