#include "run/row_modules.h"

#include <map>
#include <string>

namespace lockstep::cli {

void name_row_modules(nlohmann::json& matrix, const nlohmann::json& description) {
  std::map<std::string, std::string> module_of;  // backend -> module file
  if (description.contains("rows") && description["rows"].is_array())
    for (const nlohmann::json& d : description["rows"]) {
      const std::string module = d.value("module", "");
      if (!module.empty()) module_of[d.value("backend", "")] = module;
    }
  if (module_of.empty() || !matrix.contains("rows")) return;
  for (nlohmann::json& row : matrix["rows"])
    if (const auto it = module_of.find(row.value("backend", "")); it != module_of.end()) row["module"] = it->second;
}

}  // namespace lockstep::cli
