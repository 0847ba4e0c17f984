#include "bench/analyze/mca.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace lockstep::cli::analyze {

std::vector<std::string> mca_command(const std::string& mca, std::string_view model,
                                     const std::string& assembly_file, const std::string& json_file) {
  return {mca,
          "-mtriple=x86_64",
          fmt::format("-mcpu={}", model),
          fmt::format("-iterations={}", kMcaIterations),
          "--json",
          "-o",
          json_file,
          assembly_file};
}

McaCycles cycles_per_pass(const nlohmann::json& report) {
  const nlohmann::json* region = nullptr;
  if (report.is_object() && report.contains("CodeRegions") && report["CodeRegions"].is_array() &&
      report["CodeRegions"].size() == 1)
    region = &report["CodeRegions"][0];
  if (region == nullptr || !region->is_object()) return {{}, "llvm-mca's report has no single code region"};

  // Instruction k of InstructionList is line k of Instructions.
  const nlohmann::json info = region->value("/InstructionInfoView/InstructionList"_json_pointer, nlohmann::json());
  const nlohmann::json text = region->value("Instructions", nlohmann::json());
  for (size_t k = 0; info.is_array() && k < info.size(); ++k)
    if (info[k].value("hasUnmodeledSideEffects", false)) {
      std::string what = text.is_array() && k < text.size() && text[k].is_string()
                             ? text[k].get<std::string>() : fmt::format("instruction {}", k);
      // One space between words: llvm-mca keeps the assembler's tabs and runs of spaces.
      std::replace(what.begin(), what.end(), '\t', ' ');
      what.erase(std::unique(what.begin(), what.end(), [](char a, char b) { return a == ' ' && b == ' '; }),
                 what.end());
      return {{}, fmt::format("llvm-mca does not model `{}`", what)};
    }

  const nlohmann::json summary = region->value("SummaryView", nlohmann::json());
  if (!summary.is_object() || !summary.contains("TotalCycles") || !summary.contains("Iterations") ||
      !summary["TotalCycles"].is_number() || !summary["Iterations"].is_number() ||
      summary["Iterations"].get<double>() <= 0)
    return {{}, "llvm-mca's report has no TotalCycles and Iterations"};
  return {summary["TotalCycles"].get<double>() / summary["Iterations"].get<double>(), ""};
}

}  // namespace lockstep::cli::analyze
