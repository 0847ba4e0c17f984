#include "emulators.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "cpu/cpu.h"
#if LOCKSTEP_CLI_PHE_EMULATOR
#include "phe/phe_emulator.h"
#endif
#if LOCKSTEP_CLI_SHA512EXT_EMULATOR
#include "sha512ext/sha512ext_emulator.h"
#endif

namespace lockstep::cli {
namespace {

// An in-process emulator: its LOCKSTEP_EMULATE item, the name it declares
// its features under, and how to install its handler.
struct InProcess {
  std::string_view item;
  std::string_view name;
  bool (*install)();
};

// Those linked into this build (x86-64 Linux only).
std::vector<InProcess> in_process_emulators() {
  std::vector<InProcess> out;
#if LOCKSTEP_CLI_PHE_EMULATOR
  out.push_back({"phe", phe::kEmulatorName, phe::install});
#endif
#if LOCKSTEP_CLI_SHA512EXT_EMULATOR
  out.push_back({"sha512ext", sha512ext::kEmulatorName, sha512ext::install});
#endif
  return out;
}

// Emulators outside the process, which run all of it.
constexpr std::string_view kOutside[] = {"sde", "qemu"};

// Items of a comma-separated list, trimmed as the trap emulators trim them;
// empty items are dropped.
std::vector<std::string> items(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
  }
  return out;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

int check_emulation_environment() {
  const std::vector<InProcess> emulators = in_process_emulators();
  std::string known_items, known_names;
  for (const InProcess& e : emulators) {
    known_items += fmt::format("{}{}", known_items.empty() ? "" : ", ", e.item);
    known_names += fmt::format("{}{}", known_names.empty() ? "" : ", ", e.name);
  }
  for (std::string_view o : kOutside) known_names += fmt::format("{}{}", known_names.empty() ? "" : ", ", o);
  if (known_items.empty()) known_items = "none in this build";

  for (const std::string& item : items(env("LOCKSTEP_EMULATE"))) {
    bool found = false;
    for (const InProcess& e : emulators) found = found || item == e.item;
    if (!found) {
      fmt::print(stderr, "lockstep: LOCKSTEP_EMULATE: unknown emulator '{}' (known: {})\n", item, known_items);
      return 2;
    }
  }
  for (const std::string& name : items(env("LOCKSTEP_CPU_EMULATED_BY"))) {
    const InProcess* in_process = nullptr;
    for (const InProcess& e : emulators)
      if (name == e.name) in_process = &e;
    bool outside = false;
    for (std::string_view o : kOutside) outside = outside || name == o;
    if (!in_process && !outside) {
      fmt::print(stderr, "lockstep: LOCKSTEP_CPU_EMULATED_BY: unknown emulator '{}' (known: {})\n", name,
                 known_names);
      return 2;
    }
    // The features LOCKSTEP_CPU declares run through this handler.
    if (in_process && !in_process->install()) {
      fmt::print(stderr, "lockstep: LOCKSTEP_CPU_EMULATED_BY={}: cannot install its SIGILL handler\n", name);
      return 2;
    }
  }
  return 0;
}

std::vector<std::string> emulators_in_effect() {
  const cpu::State& s = cpu::state();
  std::vector<std::string> out = items(s.in_process_emulator);
  for (const std::string& name : items(env("LOCKSTEP_CPU_EMULATED_BY")))
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

}  // namespace lockstep::cli
