#include "dispatch_profiles.h"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include <nlohmann/json.hpp>

#include "cpu_fields.h"

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
    DispatchProfile profile;
    profile.cpu = models::string_field(p, "cpu", where, error);
    if (!error.empty()) return {};
    where += " (" + profile.cpu + ")";
    profile.source = models::string_field(p, "source", where, error);
    const std::string arch = models::string_field(p, "arch", where, error);
    if (!error.empty()) return {};
    const auto a = models::parse_arch(arch, where, error);
    if (!a) return {};
    profile.arch = *a;
    if (!p.contains("features") || !p["features"].is_array() || p["features"].empty()) {
      error = where + ": field \"features\" must be a non-empty array of feature names";
      return {};
    }
    const auto named = models::parse_features(p["features"], profile.arch, where, error);
    if (!named) return {};
    profile.features = cpu::with_prerequisites(*named);
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
