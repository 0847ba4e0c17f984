#include "run/row_placement.h"

#include <algorithm>
#include <bit>
#include <sstream>

#include "cpu/cpu.h"
#include "cpu_models.h"

namespace lockstep::cli {

std::string runs_in(const std::string& env_id, const std::string& needs, const std::vector<std::string>& selected) {
  const models::Model* here = models::find(env_id);
  if (here == nullptr) return "";
  cpu::FeatureSet wanted;
  std::istringstream names(needs);
  for (std::string name; names >> name;) {
    const std::optional<cpu::Feature> f = cpu::parse_feature(name, here->arch);
    if (!f) return "";  // a name this table cannot judge: run it here
    wanted.add(*f);
  }
  wanted = cpu::with_prerequisites(wanted);
  const models::Model* lowest = nullptr;
  for (const models::Model& m : models::table().models) {
    if (m.emulator != here->emulator || !m.features.has_all(wanted)) continue;
    if (std::find(selected.begin(), selected.end(), m.id) == selected.end()) continue;
    if (lowest == nullptr || std::popcount(m.features.bits()) < std::popcount(lowest->features.bits())) lowest = &m;
  }
  return lowest == nullptr || lowest == here ? "" : lowest->id;
}

}  // namespace lockstep::cli
