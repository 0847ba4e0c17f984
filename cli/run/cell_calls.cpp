#include "run/cell_calls.h"

#include <fstream>

namespace lockstep::cli {

void CellCalls::read(const std::filesystem::path& file) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("test") || !j["test"].is_string() || !j.contains("calls") ||
        !j["calls"].is_object())
      continue;
    auto& counts = per_test_[j["test"].get<std::string>()];
    for (const auto& [backend, n] : j["calls"].items())
      if (n.is_number_unsigned()) counts[backend] += n.get<uint64_t>();
  }
}

void CellCalls::attribute(const std::string& row_test, const std::string& column, const std::string& test) {
  const auto it = per_test_.find(test);
  auto& cell = per_cell_[{row_test, column}];
  if (it == per_test_.end()) return;
  for (const auto& [backend, n] : it->second) cell[backend] += n;
}

void CellCalls::describe(const std::string& row_test, const std::string& column, const std::string& backend,
                         nlohmann::json& provenance) const {
  uint64_t n = 0;
  if (const auto cell = per_cell_.find({row_test, column}); cell != per_cell_.end())
    if (const auto b = cell->second.find(backend); b != cell->second.end()) n = b->second;
  provenance["backend_calls"] = n;
  provenance["backend_executed"] = n > 0;
}

}  // namespace lockstep::cli
