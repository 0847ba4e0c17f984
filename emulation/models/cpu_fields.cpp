#include "cpu_fields.h"

#include <utility>

#include <nlohmann/json.hpp>

namespace lockstep::models {
namespace {

void fault(std::string& error, std::string message) {
  if (error.empty()) error = std::move(message);
}

}  // namespace

std::string string_field(const nlohmann::json& j, const char* key, const std::string& where, std::string& error) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) {
    fault(error, where + ": field \"" + key + "\" must be a string");
    return "";
  }
  return it->get<std::string>();
}

std::optional<cpu::Arch> parse_arch(std::string_view name, const std::string& where, std::string& error) {
  if (name == "x86_64") return cpu::Arch::kX86_64;
  if (name == "arm64") return cpu::Arch::kArm64;
  fault(error, where + ": field \"arch\": '" + std::string(name) + "' is neither x86_64 nor arm64");
  return std::nullopt;
}

std::optional<cpu::FeatureSet> parse_features(const nlohmann::json& names, cpu::Arch arch, const std::string& where,
                                              std::string& error) {
  cpu::FeatureSet out;
  for (const nlohmann::json& f : names) {
    const auto feature = f.is_string() ? cpu::parse_feature(f.get<std::string>(), arch) : std::nullopt;
    if (!feature) {
      fault(error, where + ": field \"features\": " + f.dump() + " is not a " + std::string(cpu::arch_name(arch)) +
                       " feature of lockstep's");
      return std::nullopt;
    }
    out.add(*feature);
  }
  return out;
}

}  // namespace lockstep::models
