// The before/after speed table of `lockstep tree --series`: every backend
// the series rebuilt, beside itself before the series, measured natively in
// one lockstep_bench run (a length's two rows run next to each other).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_report/report.h"
#include "bench_report/run.h"
#include "host/loader.h"
#include "series.h"

namespace lockstep::cli::tree {
namespace {

// `name` as a literal inside an extended regular expression.
std::string regex_literal(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::string_view(".[]{}()\\*+?|^$").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void bench_series(const std::filesystem::path& out, double min_time) {
  // The native modules only: an arm64 row runs here under QEMU alone, where
  // a time says nothing about the code.
  std::vector<std::string> names;
  for (const module::LoadedBackend& b : module::backends()) {
    if (!b.full_name.ends_with(kSeriesSuffix)) continue;
    names.push_back(regex_literal(b.full_name));
    names.push_back(regex_literal(b.full_name.substr(0, b.full_name.size() - std::string_view(kSeriesSuffix).size())));
  }
  if (names.empty()) {
    fmt::print("\nNo before/after bench: the series rebuilt no module that runs natively here.\n");
    return;
  }
  std::string alternatives;
  for (const std::string& n : names) alternatives += (alternatives.empty() ? "" : "|") + n;
  fmt::print(stderr, "lockstep tree: timing the {} backend(s) the series rebuilt, before and after\n",
             names.size() / 2);
  const std::optional<bench_report::Results> r = measure({.filter = "^(hash|crypt)/[^/]+/(" + alternatives + ")/",
                                                          .min_time = min_time,
                                                          .json = out / "series-bench.json",
                                                          .who = "lockstep tree"});
  if (!r) {
    fmt::print("\nNo before/after bench: lockstep_bench did not run (above).\n");
    return;
  }
  std::string cpu;
  for (const auto& [key, value] : r->context)
    if (key == "CPU") cpu = value;
  fmt::print("\n## Before and after the series: MB/s on this CPU{}{}\n\n{}", cpu.empty() ? "" : ", ", cpu,
             bench_report::before_after_table(*r, kSeriesSuffix));
}

}  // namespace lockstep::cli::tree
