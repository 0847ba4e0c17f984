#include "dispatch_profiles.h"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include <nlohmann/json.hpp>

namespace lockstep::conformance {

// The text of conformance/dispatch_profiles.json, generated at configure time.
extern const char* const kDispatchProfilesJson;

std::vector<DispatchProfile> parse_dispatch_profiles(std::string_view text, std::string_view file,
                                                     std::string& error) {
  using nlohmann::json;
  error.clear();
  const std::string in_file(file);
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("profiles") || !doc["profiles"].is_array()) {
    error = in_file + ": not a JSON object with a \"profiles\" array";
    return {};
  }
  std::vector<DispatchProfile> out;
  for (size_t i = 0; i < doc["profiles"].size(); ++i) {
    const json& p = doc["profiles"][i];
    std::string where = in_file + ": profile " + std::to_string(i);
    auto string_field = [&](const char* key) -> std::optional<std::string> {
      if (!p.is_object() || !p.contains(key) || !p[key].is_string()) {
        error = where + ": field \"" + key + "\" must be a string";
        return std::nullopt;
      }
      return p[key].get<std::string>();
    };
    DispatchProfile profile;
    const auto cpu_name = string_field("cpu");
    if (!cpu_name) return {};
    profile.cpu = *cpu_name;
    where += " (" + profile.cpu + ")";
    const auto arch = string_field("arch");
    const auto source = string_field("source");
    if (!arch || !source) return {};
    profile.source = *source;
    if (*arch == "x86_64") {
      profile.arch = cpu::Arch::kX86_64;
    } else if (*arch == "arm64") {
      profile.arch = cpu::Arch::kArm64;
    } else {
      error = where + ": field \"arch\": '" + *arch + "' is neither x86_64 nor arm64";
      return {};
    }
    if (!p.contains("features") || !p["features"].is_array() || p["features"].empty()) {
      error = where + ": field \"features\" must be a non-empty array of feature names";
      return {};
    }
    for (const json& f : p["features"]) {
      const auto feature = f.is_string() ? cpu::parse_feature(f.get<std::string>(), profile.arch) : std::nullopt;
      if (!feature) {
        error = where + ": field \"features\": " + f.dump() + " is not a " +
                std::string(cpu::arch_name(profile.arch)) + " feature of lockstep's";
        return {};
      }
      profile.features.add(*feature);
    }
    profile.features = cpu::with_prerequisites(profile.features);
    if (!p.contains("select") || !p["select"].is_object() || p["select"].empty()) {
      error = where + ": field \"select\" must map families to backend names";
      return {};
    }
    for (const auto& [family, backend] : p["select"].items()) {
      if (!backend.is_string() || !backend.get<std::string>().starts_with(family + "/")) {
        error = where + ": field \"select\": " + family + ": " + backend.dump() +
                " is not the name of a " + family + " backend";
        return {};
      }
      profile.select[family] = backend.get<std::string>();
    }
    out.push_back(std::move(profile));
  }
  return out;
}

const std::vector<DispatchProfile>& dispatch_profiles() {
  static const std::vector<DispatchProfile> table = [] {
    std::string error;
    auto parsed = parse_dispatch_profiles(kDispatchProfilesJson, "conformance/dispatch_profiles.json", error);
    if (!error.empty()) {
      std::fprintf(stderr, "lockstep: %s\n", error.c_str());
      std::abort();
    }
    return parsed;
  }();
  return table;
}

}  // namespace lockstep::conformance
