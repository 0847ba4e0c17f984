#include "env_vars.h"

#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "cpu/cpu.h"
#include "cpu_models.h"
#include "env_value.h"

namespace lockstep::cli {
namespace {

// The value of `name`, or nothing when it is unset or empty (as unset
// everywhere it is read).
const char* set_value(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

std::string known_models() {
  std::string out;
  for (const models::Model& m : models::table().models) out += (out.empty() ? "" : ", ") + m.id;
  return out;
}

}  // namespace

int check_lockstep_variables() {
  std::string errors;
  if (const char* v = set_value("LOCKSTEP_SEED"); v && !lockstep::env::parse_seed(v))
    errors += lockstep::env::seed_error(v) + "\n";
  for (const char* flag : {"LOCKSTEP_REQUIRE_ALL", "LOCKSTEP_TRAP_PATCH"})
    if (const char* v = set_value(flag); v && !lockstep::env::parse_flag(v))
      errors += lockstep::env::flag_error(flag, v) + "\n";
  if (const char* v = set_value("LOCKSTEP_CPU_MODEL"); v && models::find(v) == nullptr)
    errors += fmt::format("LOCKSTEP_CPU_MODEL={}: names no model of emulation/cpu_models.json (known: {})\n", v,
                          known_models());
  if (const char* v = set_value("LOCKSTEP_CPU_IDENTITY"))
    if (const cpu::IdentityParse p = cpu::parse_identity(v); !p.error.empty()) errors += p.error + "\n";
  if (const char* v = set_value("LOCKSTEP_KERNEL_SIMD")) {
    const std::string_view mode = v;
    if (mode != "usable" && mode != "unusable" && mode != "alternate")
      errors += fmt::format("LOCKSTEP_KERNEL_SIMD={}: not one of usable, unusable, alternate\n", v);
  }
  if (const char* v = set_value("LOCKSTEP_BENCH_KERNEL_FPU")) {
    const std::string_view model = v;
    if (model != "lazy" && model != "strict")
      errors += fmt::format("LOCKSTEP_BENCH_KERNEL_FPU={}: not one of lazy, strict\n", v);
  }
  if (errors.empty()) {
    // The mask, as every lockstep program applies it: a name that is no
    // feature, a malformed item or a feature declared that nothing
    // provides stops here, naming it, with status 2 (impl/cpu).
    (void)cpu::state();
    return 0;
  }
  for (size_t at = 0; at < errors.size();) {
    const size_t nl = errors.find('\n', at);
    fmt::print(stderr, "lockstep: {}\n", errors.substr(at, nl - at));
    at = nl + 1;
  }
  return 2;
}

}  // namespace lockstep::cli
