#include "emulators.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "cpu/cpu.h"
#include "trap/trap.h"

namespace lockstep::cli {
namespace {

// Emulators outside the process, which run all of it.
constexpr std::string_view kOutside[] = {"sde", "qemu"};

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

std::vector<std::string> list_items(std::string_view list) {
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

bool runs_outside(std::string_view name) {
  return std::find(std::begin(kOutside), std::end(kOutside), name) != std::end(kOutside);
}

int check_emulation_environment() {
  // LOCKSTEP_EMULATE is the trap host's: it has refused an unknown name
  // before main. Here only what LOCKSTEP_CPU_EMULATED_BY may name.
  std::string known_names;
  for (const trap::Emulator* e : trap::emulators())
    known_names += fmt::format("{}{}", known_names.empty() ? "" : ", ", trap::id(*e));
  for (std::string_view o : kOutside) known_names += fmt::format("{}{}", known_names.empty() ? "" : ", ", o);

  for (const std::string& name : list_items(env("LOCKSTEP_CPU_EMULATED_BY"))) {
    const trap::Emulator* in_process = nullptr;
    for (const trap::Emulator* e : trap::emulators())
      if (name == trap::id(*e)) in_process = e;
    if (!in_process && !runs_outside(name)) {
      fmt::print(stderr, "lockstep: LOCKSTEP_CPU_EMULATED_BY: unknown emulator '{}' (known: {})\n", name,
                 known_names);
      return 2;
    }
    // The features LOCKSTEP_CPU declares run through this handler.
    std::string error;
    if (in_process && !trap::install(*in_process, &error)) {
      fmt::print(stderr, "lockstep: LOCKSTEP_CPU_EMULATED_BY={}: cannot install its SIGILL handler: {}\n", name,
                 error);
      return 2;
    }
  }
  return 0;
}

std::vector<std::string> emulators_in_effect() {
  const cpu::State& s = cpu::state();
  std::vector<std::string> out = list_items(s.in_process_emulator);
  for (const std::string& name : list_items(env("LOCKSTEP_CPU_EMULATED_BY")))
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

}  // namespace lockstep::cli
