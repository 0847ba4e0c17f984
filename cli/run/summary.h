// What `lockstep run` says of all its environments together: the coverage
// per backend, the count of cells, and matrix.json.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/run_reports.h"

namespace lockstep::cli {

struct CellCounts {
  int pass = 0, fail = 0, skip = 0, warn = 0;
};

// count_cells counts every cell of the environments that ran; one that could
// not run counts as one cell of its status.
CellCounts count_cells(const std::vector<EnvReport>& reports);

// summary_line is "N passed, N failed, N skipped[, N warned]".
std::string summary_line(const CellCounts& c);

// coverage lists, per backend, the environments where every one of its cells
// passed (rows it declined aside); a backend that passed nowhere is NOT
// COVERED, with why. "" when no environment ran.
std::string coverage(const std::vector<EnvReport>& reports);

// environments_json is matrix.json's "environments": each environment's
// status, and where it ran, its CPU, selection, provenance, matrix and
// failed tests.
nlohmann::json environments_json(const std::vector<EnvReport>& reports);

}  // namespace lockstep::cli
