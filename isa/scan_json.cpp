#include "isa/scan_json.h"

namespace lockstep::isa {

nlohmann::json to_json(const Scan& s) {
  nlohmann::json uses = nlohmann::json::object();
  for (const auto& [ext, u] : s.uses)
    uses[ext] = {{"mnemonic", u.mnemonic}, {"address", u.address}, {"where", u.where}};
  return {{"uses", uses},
          {"functions", s.functions},
          {"instructions", s.instructions},
          {"indirect_calls", s.indirect_calls},
          {"external_calls", s.external_calls},
          {"problems", s.problems}};
}

Scan scan_from_json(const nlohmann::json& j) {
  Scan s;
  for (const auto& [ext, u] : j.at("uses").items())
    s.uses[ext] = Use{u.at("mnemonic").get<std::string>(), u.at("address").get<std::uintptr_t>(),
                      u.at("where").get<std::string>()};
  s.functions = j.at("functions").get<std::vector<std::string>>();
  s.instructions = j.at("instructions").get<size_t>();
  s.indirect_calls = j.at("indirect_calls").get<size_t>();
  s.external_calls = j.at("external_calls").get<size_t>();
  s.problems = j.at("problems").get<std::vector<std::string>>();
  return s;
}

}  // namespace lockstep::isa
