#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "commands.h"

namespace lockstep::cli {

int cmd_list(bool json) {
  const cpu::FeatureSet eff = cpu::effective();
  nlohmann::json out = nlohmann::json::array();
  for (const catalog::Family* f : catalog::families()) {
    const Backend* chosen = f->default_backend();
    for (const Backend* b : f->backends()) {
      const bool usable = b->usable(eff);
      const std::string missing = (b->needs - eff).to_string();
      out.push_back({
          {"name", b->name},
          {"family", f->name},
          {"needs", b->needs.to_string()},
          {"available", usable},
          {"reason", usable ? "" : "needs " + missing + ", which this CPU lacks or the mask hides"},
          {"default", b == chosen},
          {"notes", b->notes},
      });
    }
  }
  if (json) {
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  fmt::print("{:<22} {:<26} {:<9} {}\n", "backend", "needs", "default", "available here");
  for (const auto& b : out) {
    fmt::print("{:<22} {:<26} {:<9} {}\n", b["name"].get<std::string>(),
               b["needs"].get<std::string>().empty() ? "-" : b["needs"].get<std::string>(),
               b["default"].get<bool>() ? "yes" : "", b["available"].get<bool>() ? "yes" : "no: " + b["reason"].get<std::string>());
  }
  fmt::print("\neffective CPU features: {}\n", eff.to_string());
  return 0;
}

}  // namespace lockstep::cli
