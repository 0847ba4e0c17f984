// What the parts of the bench report (report.h) share, and nothing
// more: names as the tables show them, and the MB/s arithmetic that the
// tables, the targets and the chart all use.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench_report/report.h"

namespace lockstep::cli::bench_report::detail {

// In report_parse.cpp, which names the series as it reads them.
std::string display_of(std::string_view alg);      // "sha256" -> "SHA-256"
std::string anchor_label(std::string_view id);     // "openssl" -> "OpenSSL"
std::string short_name(std::string_view backend);  // "sha256/x86-shani" -> "x86-shani"

// In tables.cpp.
std::string mbps_text(std::optional<double> v);                 // "-" when unset
std::optional<double> at(const Series* s, size_t len);          // unset: not measured
std::optional<double> ratio(std::optional<double> num, std::optional<double> den);
std::string row(const std::vector<std::string>& cells);  // a Markdown table row

}  // namespace lockstep::cli::bench_report::detail
