// llvm-mca (LLVM's machine-code analyser, version 19) as lockstep runs it
// on a hot loop, and what its JSON says: cycles per pass of the loop on
// one CPU model.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lockstep::cli::analyze {

inline constexpr std::string_view kMcaProgram = "llvm-mca-19";
inline constexpr int kMcaIterations = 200;

// mca_command is the command line that simulates `assembly_file`'s loop
// body for `model` and writes its JSON report to `json_file`.
std::vector<std::string> mca_command(const std::string& mca, std::string_view model,
                                     const std::string& assembly_file, const std::string& json_file);

struct McaCycles {
  std::optional<double> per_pass;  // TotalCycles / Iterations
  std::string problem;             // why not, when unset
};

// cycles_per_pass reads llvm-mca's JSON report. An instruction the model
// does not describe (llvm-mca then assumes a made-up cost: "unmodeled side
// effects", as for REP XSHA256) makes it no prediction, naming the
// instruction.
McaCycles cycles_per_pass(const nlohmann::json& report);

}  // namespace lockstep::cli::analyze
