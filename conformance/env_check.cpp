#include "env_check.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cpu_models.h"
#include "env_value.h"

namespace lockstep::conformance {

bool check_environment() {
  std::string error;
  const char* seed = std::getenv("LOCKSTEP_SEED");
  const char* require_all = std::getenv("LOCKSTEP_REQUIRE_ALL");
  const char* model = std::getenv("LOCKSTEP_CPU_MODEL");
  if (seed && *seed && !lockstep::env::parse_seed(seed)) error = lockstep::env::seed_error(seed);
  else if (require_all && *require_all && !lockstep::env::parse_flag(require_all))
    error = lockstep::env::flag_error("LOCKSTEP_REQUIRE_ALL", require_all);
  else if (model && *model && models::find(model) == nullptr)
    error = std::string("LOCKSTEP_CPU_MODEL=") + model + ": names no model of emulation/cpu_models.json";
  if (error.empty()) return true;
  std::fprintf(stderr, "conformance_tests: %s\n", error.c_str());
  return false;
}

}  // namespace lockstep::conformance
