#include "run/summary.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "run/row_modules.h"

namespace lockstep::cli {

CellCounts count_cells(const std::vector<EnvReport>& reports) {
  CellCounts c;
  for (const EnvReport& e : reports) {
    if (e.not_selected) continue;
    if (!e.ran) {
      (e.status.status == Status::kFail ? c.fail : c.skip) += 1;
      continue;
    }
    for (const RowKey& r : e.matrix.rows())
      for (const std::string& col : e.matrix.columns()) {
        const Status s = e.matrix.get(r, col).status;
        (s == Status::kPass ? c.pass : s == Status::kFail ? c.fail : s == Status::kWarn ? c.warn : c.skip) += 1;
      }
  }
  return c;
}

std::string summary_line(const CellCounts& c) {
  return fmt::format("{} passed, {} failed, {} skipped{}", c.pass, c.fail, c.skip,
                     c.warn ? fmt::format(", {} warned", c.warn) : "");
}

namespace {

// Per backend of one environment: whether every cell passed, and why not
// (the first cell that did not), into `why_not` unless it has a reason.
// A backend that declined every row here, such as a driver its glue did
// not register, is not covered by this environment.
std::map<std::string, bool> covered_in(const EnvReport& e, std::map<std::string, std::string>& why_not) {
  std::map<std::string, std::pair<bool, bool>> all_pass;  // (nothing failed, something passed)
  for (const RowKey& r : e.matrix.rows()) {
    auto& [ok, any] = all_pass.try_emplace(r.backend, true, false).first->second;
    for (const std::string& col : e.matrix.columns()) {
      const Cell& c = e.matrix.get(r, col);
      auto note = [&] {
        if (!why_not.count(r.backend)) why_not[r.backend] = status_name(c.status) + "(" + c.detail + ")";
      };
      if (c.provenance.is_object() && c.provenance.value("declined", false)) {
        note();
        continue;
      }
      // A check that does not apply to the row (conformance's skip_not_applicable).
      if (c.status == Status::kSkip && c.detail.starts_with("not applicable:")) continue;
      if (c.status == Status::kPass || c.status == Status::kWarn) {
        any = true;
      } else {
        ok = false;
        note();
      }
    }
  }
  std::map<std::string, bool> out;
  for (const auto& [b, verdict] : all_pass) out[b] = verdict.first && verdict.second;
  return out;
}

}  // namespace

std::string coverage(const std::vector<EnvReport>& reports) {
  std::map<std::string, std::vector<std::string>> passed;
  std::map<std::string, std::string> why_not;
  for (const EnvReport& e : reports) {
    if (!e.ran) continue;
    for (const auto& [b, covered] : covered_in(e, why_not)) {
      auto& list = passed[b];
      if (covered) list.push_back(e.id);
    }
  }
  if (passed.empty()) return "";
  size_t width = 0;
  for (const auto& [b, envs] : passed) width = std::max(width, b.size());
  std::string out = "\ncoverage (environments where every cell of the backend passed):\n";
  for (const auto& [b, envs] : passed) {
    std::string list;
    for (const std::string& e : envs) list += (list.empty() ? "" : ", ") + e;
    out += envs.empty() ? fmt::format("  {:<{}}  NOT COVERED: {}\n", b, width, why_not[b])
                        : fmt::format("  {:<{}}  {}\n", b, width, list);
  }
  return out;
}

nlohmann::json environments_json(const std::vector<EnvReport>& reports) {
  nlohmann::json envs = nlohmann::json::array();
  for (const EnvReport& e : reports) {
    nlohmann::json j = {{"environment", e.name}, {"id", e.id}, {"status", status_name(e.status.status)},
                        {"seconds", e.seconds}};
    if (!e.ran) {
      j["detail"] = e.status.detail;
    } else {
      j["cpu"] = e.description["cpu"];
      j["selected"] = e.description["selected"];
      j["kernel_selected"] = e.description.value("kernel_selected", nlohmann::json::array());
      j["provenance"] = e.provenance;
      j["matrix"] = e.matrix.to_json();
      name_row_modules(j["matrix"], e.description);
      nlohmann::json ft = nlohmann::json::array();
      for (const FailedTest& t : e.failed_tests)
        ft.push_back({{"test", t.outcome.suite + "." + t.outcome.name}, {"reproduce", t.reproduce}});
      j["failed_tests"] = ft;
    }
    envs.push_back(j);
  }
  return envs;
}

}  // namespace lockstep::cli
