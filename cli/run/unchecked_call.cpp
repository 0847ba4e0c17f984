#include "run/unchecked_call.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "run/matrix.h"

namespace lockstep::cli {
namespace {

std::vector<std::string> feature_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

void explain_unchecked_call(const std::vector<UncheckedCall>& calls, const std::string& backend,
                            const std::string& effective, Cell& cell) {
  // The crash as crash isolation words it: "died of signal 4 (SIGILL)".
  if (cell.status != Status::kFail || cell.detail.find("(SIGILL)") == std::string::npos) return;
  const std::vector<std::string> has = feature_words(effective);
  for (const UncheckedCall& c : calls) {
    if (c.backend != backend) continue;
    std::string missing;
    for (const std::string& n : feature_words(c.needs))
      if (std::find(has.begin(), has.end(), n) == has.end()) missing += (missing.empty() ? "" : " ") + n;
    if (missing.empty()) continue;
    cell.detail = fmt::format(
        "Synchronous Abort: the glue calls {}, which needs {}, on a core without it; U-Boot selects it by Kconfig "
        "only ({}, in {}): {}",
        c.function, missing, c.selected_by, c.caller, cell.detail);
    return;
  }
}

}  // namespace lockstep::cli
