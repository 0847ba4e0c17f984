#include "run/matrix.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace lockstep::cli {
namespace {

const Cell kUnfilled{Status::kSkip, "no check covered this cell"};

std::string cell_text(const Cell& c) {
  // A check that does not apply to the row: its reason, long and the same
  // down the column, is in the JSON, JUnit and KTAP reports.
  if (c.status == Status::kSkip && c.detail.starts_with("not applicable:")) return "SKIP(n/a)";
  // A row placed in another model (row_placement.h): that model's cells
  // stand for these; the text names it, the reports say why.
  if (constexpr std::string_view placed = "the same code under the same emulator runs in ";
      c.status == Status::kSkip && c.detail.starts_with(placed)) {
    const std::string rest = c.detail.substr(placed.size());
    return "SKIP(as in " + rest.substr(0, rest.find(',')) + ")";
  }
  // A long reason is cut in the table, which it would widen past reading;
  // the JSON, JUnit and KTAP reports have it whole.
  constexpr size_t kLongest = 72;
  if (c.status == Status::kSkip)
    return "SKIP(" + (c.detail.size() <= kLongest ? c.detail : c.detail.substr(0, kLongest - 3) + "...") + ")";
  if (c.status == Status::kWarn) return "WARN";
  return status_name(c.status);
}

}  // namespace

std::string status_name(Status s) {
  switch (s) {
    case Status::kPass: return "PASS";
    case Status::kFail: return "FAIL";
    case Status::kSkip: return "SKIP";
    case Status::kWarn: return "WARN";
  }
  return "?";
}

void Matrix::set(const RowKey& row, const std::string& column, Cell cell) {
  cells_[{row, column}] = std::move(cell);
}

const Cell& Matrix::get(const RowKey& row, const std::string& column) const {
  auto it = cells_.find({row, column});
  return it == cells_.end() ? kUnfilled : it->second;
}

bool Matrix::any_fail() const {
  for (const auto& [k, c] : cells_)
    if (c.status == Status::kFail) return true;
  for (const auto& [n, c] : notes_)
    if (c.status == Status::kFail) return true;
  return false;
}

std::string Matrix::to_text() const {
  std::vector<size_t> width;
  size_t first = std::string("algorithm/backend").size();
  for (const RowKey& r : rows_) first = std::max(first, r.algorithm.size() + 3 + r.backend.size());
  for (const std::string& col : columns_) {
    size_t w = col.size();
    for (const RowKey& r : rows_) w = std::max(w, cell_text(get(r, col)).size());
    width.push_back(w);
  }
  std::string out = fmt::format("{:<{}}", "algorithm/backend", first);
  for (size_t i = 0; i < columns_.size(); ++i) out += fmt::format("  {:<{}}", columns_[i], width[i]);
  out += "\n";
  for (const RowKey& r : rows_) {
    out += fmt::format("{:<{}}", r.algorithm + " @ " + r.backend, first);
    for (size_t i = 0; i < columns_.size(); ++i)
      out += fmt::format("  {:<{}}", cell_text(get(r, columns_[i])), width[i]);
    out += "\n";
  }
  std::vector<std::string> failures, warnings;
  for (const RowKey& r : rows_)
    for (const std::string& col : columns_) {
      if (const Cell& c = get(r, col); c.status == Status::kFail)
        failures.push_back(fmt::format("  {} @ {} [{}]: {}{}", r.algorithm, r.backend, col, c.detail,
                                       c.reproduce.empty() ? "" : "\n    reproduce: " + c.reproduce));
      else if (c.status == Status::kWarn)
        warnings.push_back(fmt::format("  {} @ {} [{}]: {}", r.algorithm, r.backend, col, c.detail));
    }
  if (!notes_.empty()) {
    out += "\n";
    for (const auto& [name, c] : notes_) {
      out += fmt::format("{:<{}}  {}{}\n", name, first, cell_text(c),
                         c.status == Status::kPass && !c.detail.empty() ? " (" + c.detail + ")" : "");
      if (c.status == Status::kFail)
        failures.push_back(fmt::format("  {}: {}{}", name, c.detail,
                                       c.reproduce.empty() ? "" : "\n    reproduce: " + c.reproduce));
    }
  }
  if (!warnings.empty()) {
    out += "\nwarnings:\n";
    for (const std::string& w : warnings) out += w + "\n";
  }
  if (!failures.empty()) {
    out += "\nfailures:\n";
    for (const std::string& f : failures) out += f + "\n";
  }
  return out;
}

nlohmann::json Matrix::to_json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const RowKey& r : rows_) {
    nlohmann::json cells = nlohmann::json::object();
    for (const std::string& col : columns_) {
      const Cell& c = get(r, col);
      nlohmann::json cell = {{"status", status_name(c.status)}, {"detail", c.detail}};
      if (!c.reproduce.empty()) cell["reproduce"] = c.reproduce;
      if (!c.provenance.is_null()) cell["provenance"] = c.provenance;
      for (const SkippedTests& k : c.skipped)
        cell["skipped"].push_back({{"reason", k.reason}, {"tests", k.tests}, {"first", k.first}});
      cells[col] = std::move(cell);
    }
    rows.push_back({{"algorithm", r.algorithm}, {"backend", r.backend}, {"checks", cells}});
  }
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& [name, c] : notes_)
    notes.push_back({{"check", name}, {"status", status_name(c.status)}, {"detail", c.detail}});
  return {{"columns", columns_}, {"rows", rows}, {"other_checks", notes}, {"failed", any_fail()}};
}

}  // namespace lockstep::cli
