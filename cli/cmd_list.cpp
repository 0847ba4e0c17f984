// `lockstep list`: every backend compiled in, what it needs, whether it runs
// here, which one each family selects and what each declares; and the CPU: its identity, the
// features detected, hidden and declared by LOCKSTEP_CPU, the effective set
// and the emulators in effect.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "backend_contract.h"
#include "catalog.h"
#include "commands.h"
#include "cpu/cpu.h"
#include "emulators.h"

namespace lockstep::cli {
namespace {

nlohmann::json cpu_json() {
  const cpu::State& s = cpu::state();
  const std::vector<std::string> emulators = emulators_in_effect();
  return {
      {"arch", std::string(cpu::arch_name(cpu::build_arch()))},
      // The environment's identity (cpu.h: a trap emulator's model, or
      // LOCKSTEP_CPU_IDENTITY's stand-in), and the host's beside it.
      {"vendor", s.identity.vendor},
      {"brand", s.identity.brand},
      {"family", s.identity.family},
      {"model", s.identity.model},
      {"stepping", s.identity.stepping},
      {"identity_by", s.identity_by},
      {"host", {{"vendor", s.detection.id.vendor},
                {"brand", s.detection.id.brand},
                {"family", s.detection.id.family},
                {"model", s.detection.id.model},
                {"stepping", s.detection.id.stepping}}},
      {"mask", s.mask},
      {"detected", s.detection.features.to_string()},
      {"emulated", s.in_process_emulated.to_string()},
      {"hidden", s.result.hidden.to_string()},
      {"declared", s.result.declared.to_string()},
      {"effective", cpu::effective().to_string()},
      {"emulators", emulators},
  };
}

std::string or_none(const std::string& s) { return s.empty() ? "none" : s; }

// Why `b` does not run here: its module's words where it gave them (a
// driver its glue did not register, one it found broken), else the
// features it needs.
std::string why_not_here(const Backend& b, cpu::FeatureSet eff) {
  if (!b.broken.empty()) return "broken here: " + std::string(b.broken);
  if (!b.unavailable.empty()) return std::string(b.unavailable);
  return "needs " + (b.needs - eff).to_string() + ", which this CPU lacks or the mask hides";
}

}  // namespace

int cmd_list(bool json) {
  const cpu::FeatureSet eff = cpu::effective();
  nlohmann::json backends = nlohmann::json::array();
  for (const catalog::Family* f : catalog::families()) {
    const Backend* chosen = f->default_backend();
    for (const Backend* b : f->backends()) {
      // A whole-message cipher driver runs here through that alone.
      const bool driver_only = b->cipher_driver != nullptr && b->broken.empty();
      const bool usable = b->usable(eff) || driver_only;
      // What a module's backend offers beside its function, each checked.
      nlohmann::json offers = nlohmann::json::array();
      if (b->hash_driver != nullptr) offers.push_back("hash driver");
      if (b->mac_driver != nullptr) offers.push_back("HMAC with prepared keys");
      if (b->cipher_driver != nullptr) offers.push_back("whole-message cipher driver");
      if (b->kunit != nullptr)
        offers.push_back(fmt::format("KUnit suite {} ({})", b->kunit->name, b->kunit->file ? b->kunit->file : "?"));
      backends.push_back({
          {"offers", offers},
          {"name", b->name},
          {"family", f->name},
          {"needs", b->needs.to_string()},
          {"available", usable},
          {"reason", usable ? "" : why_not_here(*b, eff)},
          {"driver_only", driver_only},
          {"default", b == chosen},
          {"notes", b->notes},
          {"module", b->module},  // "" for lockstep's own
          {"contract", backend_contract(*f, *b)},
      });
    }
  }
  const nlohmann::json cpu = cpu_json();
  if (json) {
    fmt::print("{}\n", nlohmann::json{{"cpu", cpu}, {"backends", backends}}.dump(2));
    return 0;
  }
  size_t width = 22;  // module backends have longer names
  for (const auto& b : backends) width = std::max(width, b["name"].get<std::string>().size() + 1);
  fmt::print("{:<{}} {:<26} {:<9} {}\n", "backend", width, "needs", "default", "available here");
  for (const auto& b : backends) {
    fmt::print("{:<{}} {:<26} {:<9} {}\n", b["name"].get<std::string>(), width,
               b["needs"].get<std::string>().empty() ? "-" : b["needs"].get<std::string>(),
               b["default"].get<bool>() ? "yes" : "", b["available"].get<bool>() ? b["driver_only"].get<bool>() ? "yes, through its whole-message cipher driver only" : "yes"
                                          : "no: " + b["reason"].get<std::string>());
  }
  for (const auto& b : backends)
    if (!b["module"].get<std::string>().empty())
      fmt::print("  {} is from module {}{}\n", b["name"].get<std::string>(), b["module"].get<std::string>(),
                 b["offers"].empty() ? "" : fmt::format("; it offers {}", fmt::join(b["offers"].get<std::vector<std::string>>(), ", ")));
  fmt::print("\ncontracts (what each backend declares; the checks hold it to them):\n");
  for (const auto& b : backends)
    fmt::print("  {:<{}} {}\n", b["name"].get<std::string>(), width, contract_text(b["contract"]));
  const std::string vendor = cpu["vendor"].get<std::string>(), brand = cpu["brand"].get<std::string>();
  fmt::print("\ncpu:       {}", cpu["arch"].get<std::string>());
  if (!vendor.empty() || !brand.empty())
    fmt::print(", {}{}{} (family {:#x}, model {:#x}, stepping {})", vendor, vendor.empty() || brand.empty() ? "" : " ",
               brand, cpu["family"].get<unsigned>(), cpu["model"].get<unsigned>(), cpu["stepping"].get<unsigned>());
  if (const std::string by = cpu["identity_by"].get<std::string>(); !by.empty()) fmt::print(", by {}", by);
  fmt::print("\n");
  if (!cpu["mask"].get<std::string>().empty()) fmt::print("mask:      LOCKSTEP_CPU={}\n", cpu["mask"].get<std::string>());
  fmt::print("detected:  {}\n", or_none(cpu["detected"].get<std::string>()));
  if (!cpu["emulated"].get<std::string>().empty()) fmt::print("emulated:  {}\n", cpu["emulated"].get<std::string>());
  fmt::print("hidden:    {}\n", or_none(cpu["hidden"].get<std::string>()));
  fmt::print("declared:  {}\n", or_none(cpu["declared"].get<std::string>()));
  fmt::print("effective: {}\n", or_none(cpu["effective"].get<std::string>()));
  const std::vector<std::string> emulators = cpu["emulators"].get<std::vector<std::string>>();
  fmt::print("emulators: {}\n", emulators.empty() ? "none" : fmt::format("{}", fmt::join(emulators, ", ")));
  return 0;
}

}  // namespace lockstep::cli
