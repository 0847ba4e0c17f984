// AMD's Zen generations by CPUID family and model, as Linux names them
// (arch/x86/kernel/cpu/amd.c, bsp_init_amd: X86_FEATURE_ZEN1..ZEN6).
#include "cpu_generation.h"

#include <array>
#include <string_view>

namespace lockstep::bench {

namespace {

struct Range {
  unsigned family, first_model, last_model;
  std::string_view name;
};

constexpr std::array kAmd = {
    Range{0x17, 0x00, 0x2f, "Zen 1"}, Range{0x17, 0x50, 0x5f, "Zen 1"},
    Range{0x17, 0x30, 0x4f, "Zen 2"}, Range{0x17, 0x60, 0x7f, "Zen 2"},
    Range{0x17, 0x90, 0x91, "Zen 2"}, Range{0x17, 0xa0, 0xaf, "Zen 2"},
    Range{0x19, 0x00, 0x0f, "Zen 3"}, Range{0x19, 0x20, 0x5f, "Zen 3"},
    Range{0x19, 0x10, 0x1f, "Zen 4"}, Range{0x19, 0x60, 0xaf, "Zen 4"},
    Range{0x1a, 0x00, 0x2f, "Zen 5"}, Range{0x1a, 0x40, 0x4f, "Zen 5"},
    Range{0x1a, 0x60, 0x7f, "Zen 5"}, Range{0x1a, 0x50, 0x5f, "Zen 6"},
    Range{0x1a, 0x80, 0xaf, "Zen 6"}, Range{0x1a, 0xc0, 0xcf, "Zen 6"},
};

}  // namespace

std::string generation(const cpu::CpuId& id) {
  if (id.vendor == "GenuineIntel") return "Intel";
  if (id.vendor != "AuthenticAMD") return {};
  for (const Range& r : kAmd)
    if (id.family == r.family && id.model >= r.first_model && id.model <= r.last_model) return std::string(r.name);
  return {};
}

}  // namespace lockstep::bench
