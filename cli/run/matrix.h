// The result matrix of `lockstep run`: rows are algorithm/backend pairs,
// columns are checks, cells are PASS, FAIL or SKIP with a reason.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockstep::cli {

// WARN: every test passed, and one reported what the kernel's rules frown
// on without making the result wrong (a section over its budget, ymm/zmm
// state left dirty without vzeroupper). It never fails a run.
enum class Status { kPass, kFail, kSkip, kWarn };

// Tests of a cell that skipped for one reason: how many, and the first.
struct SkippedTests {
  std::string reason;
  int tests = 0;
  std::string first;  // "All/HashConformance.Foo/sha256_generic"
};

struct Cell {
  Status status = Status::kSkip;
  std::string detail;  // SKIP: the reason; FAIL: what failed; PASS: counts
  std::string reproduce = {};  // FAIL: one shell command that shows it again
  nlohmann::json provenance = {};  // what ran: backend executed, CPU, emulator, seed
  double seconds = 0;  // how long its checks ran (JUnit's time)
  // PASS, WARN: the tests the cell skipped, by reason (matrix.json, and
  // run --verbose), so that a pass says what it did not check.
  std::vector<SkippedTests> skipped = {};
};

struct RowKey {
  std::string algorithm;  // "sha224"
  std::string backend;    // "sha256/x86-shani"
  auto operator<=>(const RowKey&) const = default;
};

class Matrix {
 public:
  void add_row(const RowKey& row) { rows_.push_back(row); }
  void add_column(const std::string& column) { columns_.push_back(column); }
  void set(const RowKey& row, const std::string& column, Cell cell);
  // A cell no check filled in is a SKIP that says so, never a PASS.
  const Cell& get(const RowKey& row, const std::string& column) const;

  // Checks that are not per backend (dispatch, loader tests, ...).
  void add_note(const std::string& name, Cell cell) { notes_.emplace_back(name, std::move(cell)); }

  const std::vector<RowKey>& rows() const { return rows_; }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::pair<std::string, Cell>>& notes() const { return notes_; }

  bool any_fail() const;
  std::string to_text() const;
  nlohmann::json to_json() const;

 private:
  std::vector<RowKey> rows_;
  std::vector<std::string> columns_;
  std::map<std::pair<RowKey, std::string>, Cell> cells_;
  std::vector<std::pair<std::string, Cell>> notes_;
};

std::string status_name(Status s);

}  // namespace lockstep::cli
