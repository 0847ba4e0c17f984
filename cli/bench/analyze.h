// `lockstep bench --analyze`: hot_loop_table.h's backends as llvm-mca
// predicts them (cli/bench/analyze/) beside a bench run's measurements.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "bench/analyze/mca.h"
#include "bench_report/report.h"

namespace lockstep::cli {

inline constexpr std::string_view kAnalyzer = analyze::kMcaProgram;

// analyzed_binary is the file whose code is analysed: lockstep_bench,
// whose code the measurements timed, or where it is not built this
// program, which links the same backend libraries.
std::filesystem::path analyzed_binary();

// analyze_filter is the Google Benchmark regex that measures what the
// report needs: the analysed backends at the two lengths it reads.
std::string analyze_filter();

// analyze_report predicts every backend's hot loop in `binary` with the
// llvm-mca at `mca` (its files in a temporary folder), and renders the
// predictions beside `results`. A backend without a loop or a model
// without a prediction is a "-" with the reason, never a failure.
std::string analyze_report(const bench_report::Results& results, const std::string& mca,
                           const std::filesystem::path& binary);

}  // namespace lockstep::cli
