// `lockstep bench --analyze`'s report: llvm-mca's predicted cycles per
// block of each backend's hot loop on four CPU models, beside the host's
// measured cycles per block and the prediction's error on the host's
// model. A pure function of what was found, so a test can hand it a row
// with a model missing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::cli::analyze {

// Cell is a number, or why there is none.
struct Cell {
  std::optional<double> value;
  std::string problem;
};

struct BackendAnalysis {
  std::string backend;                  // "sha256/x86-shani"
  std::map<std::string, Cell> predicted;  // model -> cycles per block
  Cell measured;                        // the host's cycles per block
  // The loop predicted: its function, address and size, and how much of a
  // block a pass does. function is "" when none was found.
  std::string function;
  std::uint64_t address = 0;
  std::size_t instructions = 0;
  double blocks_per_pass = 0;
};

struct Analysis {
  std::vector<std::string> models;  // the columns, in order
  std::string host_generation;      // "Zen 4"; "" unknown
  std::string host_model;           // the model standing for it; "" none
  bool host_model_guessed = false;  // stands for a vendor, not the core
  double mhz = 0;
  std::string binary;  // the file read, as shown
  std::vector<BackendAnalysis> backends;
};

// error_percent is the host model's prediction against the measurement:
// (predicted - measured) / measured, in percent; unset without both.
std::optional<double> error_percent(const Analysis& a, const BackendAnalysis& b);

// analyze_markdown renders the table (rows: backends; columns: the models,
// "host measured", "error on host"; "-" where a cell has no number), the
// reasons for each "-", and the loops the predictions are of.
std::string analyze_markdown(const Analysis& a);

}  // namespace lockstep::cli::analyze
