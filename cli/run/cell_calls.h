// Which code ran, cell by cell: conformance_tests writes, per test, how
// often it entered each backend (LOCKSTEP_CALLS, conformance/call_log.h);
// a cell's count is what its own tests made of its row's backend, not the
// backend's total over every check and algorithm.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace lockstep::cli {

class CellCalls {
 public:
  // read adds a shard's lines; a missing file (a process that died before
  // its first test ended) or a line that is no JSON adds nothing.
  void read(const std::filesystem::path& file);

  // attribute counts the test `test` ("Suite.Name") toward the cell of the
  // row whose tests end in `row_test` ("sha224_generic"), column `column`.
  void attribute(const std::string& row_test, const std::string& column, const std::string& test);

  // describe sets `provenance`'s backend_calls (that cell's calls into
  // `backend`) and backend_executed (more than none).
  void describe(const std::string& row_test, const std::string& column, const std::string& backend,
                nlohmann::json& provenance) const;

 private:
  std::map<std::string, std::map<std::string, uint64_t>> per_test_;  // test -> backend -> calls
  std::map<std::pair<std::string, std::string>, std::map<std::string, uint64_t>> per_cell_;
};

}  // namespace lockstep::cli
