#include "describe.h"

#include <string>

#include "catalog.h"
#include "params.h"

namespace lockstep::conformance {

nlohmann::json describe() {
  const cpu::FeatureSet eff = cpu::effective();
  nlohmann::json rows = nlohmann::json::array();
  for (const HashParam& p : hash_params()) {
    rows.push_back({
        {"algorithm", p.alg->name},
        {"backend", p.backend->name},
        {"test_name", param_name(*p.alg, *p.backend)},
        {"usable", p.backend->usable(eff)},
        {"missing", (p.backend->needs - eff).to_string()},
        {"default", p.alg->family->default_backend() == p.backend},
    });
  }
  nlohmann::json selected = nlohmann::json::object();
  for (const catalog::HashAlgorithm* a : catalog::hash_algorithms())
    selected[std::string(a->name)] = a->family->default_backend()->name;
  const cpu::State& s = cpu::state();
  return {
      {"arch", cpu::arch_name(cpu::build_arch())},
      {"cpu",
       {{"vendor", s.detection.id.vendor},
        {"brand", s.detection.id.brand},
        {"detected", s.detection.features.to_string()},
        {"emulated", s.in_process_emulated.to_string()},
        {"effective", eff.to_string()},
        {"mask", s.mask},
        {"report", cpu::report()}}},
      {"selected", selected},
      {"rows", rows},
  };
}

}  // namespace lockstep::conformance
