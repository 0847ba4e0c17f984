// The CPU's identity in an environment: vendor, family, model, stepping.
// The host's comes from detection, or from LOCKSTEP_CPU_IDENTITY, which
// stands in for it ("as on an Intel host"); an in-process emulator declares
// its model's, which wins over both. Kernel glue reads it
// (boot_cpu_data.x86 >= 7 chooses Zhaoxin's PHE path), so it must follow
// the environment, never the machine the environment happens to run on.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpu/cpu.h"
#include "cpu/identity_internal.h"

namespace lockstep::cpu {
namespace {

// Short names for the vendor strings, as a person types them.
struct VendorName {
  std::string_view name, cpuid;
};
constexpr VendorName kVendorNames[] = {
    {"intel", "GenuineIntel"}, {"amd", "AuthenticAMD"}, {"zhaoxin", "  Shanghai  "},
    {"centaur", "CentaurHauls"}, {"hygon", "HygonGenuine"},
};

std::optional<unsigned> parse_number(std::string_view t) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    t.remove_prefix(2);
    base = 16;
  }
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

// Constant-initialized: an emulator's static initializer may declare before
// this file's initializers run.
constinit ModelIdentity g_declared{};
constinit bool g_has_declared = false;
std::string& declared_by() {
  static std::string by;
  return by;
}

}  // namespace

IdentityParse parse_identity(std::string_view text) {
  IdentityParse r;
  const std::string whole = "LOCKSTEP_CPU_IDENTITY=" + std::string(text);
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    const size_t colon = text.find(':', start);
    fields.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  const size_t n = fields.size();
  if (n < 3 || n > 4) {
    r.error = whole + ": expected VENDOR:FAMILY:MODEL[:STEPPING] (for example intel:6:0xa7 or zhaoxin:7:0x6b)";
    return r;
  }
  const std::string_view vendor = fields[0];
  for (const VendorName& v : kVendorNames)
    if (vendor == v.name || vendor == v.cpuid) r.id.vendor = v.cpuid;
  if (r.id.vendor.empty()) {
    if (vendor.size() != 12) {
      r.error = whole + ": the vendor '" + std::string(vendor) +
                "' is neither intel, amd, zhaoxin, centaur, hygon nor a 12-character CPUID vendor string";
      return r;
    }
    r.id.vendor = vendor;
  }
  const char* names[] = {"", "family", "model", "stepping"};
  unsigned* out[] = {nullptr, &r.id.family, &r.id.model, &r.id.stepping};
  const unsigned limits[] = {0, 0xff + 0xf, 0xff, 0xf};
  for (size_t i = 1; i < n; ++i) {
    const std::optional<unsigned> v = parse_number(fields[i]);
    if (!v || *v > limits[i]) {
      r.error = whole + ": the " + names[i] + " '" + std::string(fields[i]) + "' is not a number from 0 to " +
                std::to_string(limits[i]) + " (decimal or 0x-hex)";
      return r;
    }
    *out[i] = *v;
  }
  return r;
}

bool on_zmm_exclusion_list(const CpuId& id) {
  // Skylake-X/Cascade Lake (0x55), Ice Lake (0x6a, 0x6c, 0x7d, 0x7e, 0x9d)
  // and Tiger Lake (0x8c, 0x8d): the kernel's list.
  if (id.vendor != "GenuineIntel" || id.family != 6) return false;
  for (unsigned m : {0x55u, 0x6au, 0x6cu, 0x7du, 0x7eu, 0x9du, 0x8cu, 0x8du})
    if (id.model == m) return true;
  return false;
}

void declare_identity(const ModelIdentity& identity, std::string_view emulator) {
  if (identity_resolved()) {
    std::fprintf(stderr, "lockstep: emulator %.*s declared a CPU identity after dispatch began\n",
                 static_cast<int>(emulator.size()), emulator.data());
    std::abort();
  }
  if (g_has_declared) return;  // the first emulator's model stands
  g_declared = identity;
  g_has_declared = true;
  declared_by() = emulator;
}

ResolvedIdentity resolve_identity(const CpuId& host) {
  ResolvedIdentity r;
  r.id = host;
  if (const char* v = std::getenv("LOCKSTEP_CPU_IDENTITY"); v != nullptr && *v != '\0') {
    IdentityParse p = parse_identity(v);
    if (!p.error.empty()) {
      std::fprintf(stderr, "lockstep: %s\n", p.error.c_str());
      std::exit(2);
    }
    r.id = std::move(p.id);
    r.by = "LOCKSTEP_CPU_IDENTITY";
  }
  // An environment that models a CPU of its own is that CPU, whatever host
  // (real or stood in for) runs it.
  if (g_has_declared) {
    r.id = CpuId{std::string(g_declared.vendor), std::string(g_declared.brand), g_declared.family,
                 g_declared.model, g_declared.stepping};
    r.by = declared_by();
  }
  return r;
}

}  // namespace lockstep::cpu
