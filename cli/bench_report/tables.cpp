// The Markdown tables: MB/s per algorithm with ratios against generic and
// OpenSSL, finup_2x against two single hashes, and the speed targets.
#include <algorithm>

#include <fmt/format.h>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"

namespace lockstep::cli::bench_report {

namespace detail {

std::string mbps_text(std::optional<double> v) {
  if (!v) return "-";
  if (*v >= 100) return fmt::format("{:.0f}", *v);
  if (*v >= 10) return fmt::format("{:.1f}", *v);
  return fmt::format("{:.2f}", *v);
}

std::optional<double> at(const Series* s, size_t len) {
  if (!s) return std::nullopt;
  const auto it = s->mbps.find(len);
  return it == s->mbps.end() ? std::nullopt : std::optional<double>(it->second);
}

std::optional<double> ratio(std::optional<double> num, std::optional<double> den) {
  if (!num || !den || *den <= 0) return std::nullopt;
  return *num / *den;
}

std::string row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + c + " |";
  return out + "\n";
}

}  // namespace detail

namespace {

using detail::at;
using detail::display_of;
using detail::mbps_text;
using detail::ratio;
using detail::row;
using detail::short_name;

std::string ratio_text(std::optional<double> v) { return v ? fmt::format("{:.2f}x", *v) : "-"; }

// "x86-phe (needs phe, which this CPU lacks)", for every series that did not run.
std::string not_run(const std::vector<std::pair<std::string, std::string>>& skipped) {
  if (skipped.empty()) return {};
  std::string out = "Not run here:";
  for (size_t i = 0; i < skipped.size(); ++i)
    out += fmt::format("{} {} ({})", i ? "," : "", skipped[i].first, skipped[i].second);
  return out + ".\n";
}

}  // namespace

std::string algorithm_table(const Algorithm& a) {
  std::vector<const Series*> shown;
  std::vector<std::pair<std::string, std::string>> skipped;
  for (const Series& s : a.series) {
    if (!s.mbps.empty()) shown.push_back(&s);
    else skipped.emplace_back(s.label, s.skipped.empty() ? "no result" : s.skipped);
  }
  const Series* generic = nullptr;
  const Series* openssl = nullptr;
  for (const Series* s : shown) {
    if (!s->anchor && s->generic()) generic = s;
    if (s->anchor && s->id == "openssl") openssl = s;
  }
  // Every fast backend against generic and against OpenSSL.
  struct RatioColumn {
    std::string header;
    const Series *num, *den;
  };
  std::vector<RatioColumn> ratios;
  for (const Series* s : shown) {
    if (s->anchor || s->generic()) continue;
    if (generic) ratios.push_back({s->label + " / generic", s, generic});
    if (openssl) ratios.push_back({s->label + " / OpenSSL", s, openssl});
  }

  std::string out = fmt::format("### {}: MB/s by message length\n\n", a.display);
  std::vector<std::string> header = {"bytes"};
  for (const Series* s : shown) header.push_back(s->label);
  for (const RatioColumn& c : ratios) header.push_back(c.header);
  out += row(header);
  out += row(std::vector<std::string>(header.size(), "---:"));
  for (const size_t len : a.lengths) {
    std::vector<std::string> cells = {std::to_string(len)};
    for (const Series* s : shown) cells.push_back(mbps_text(at(s, len)));
    for (const RatioColumn& c : ratios) cells.push_back(ratio_text(ratio(at(c.num, len), at(c.den, len))));
    out += row(cells);
  }
  out += "\n";
  out += not_run(skipped);
  for (const Series* s : shown)
    if (s->anchor && !s->note.empty()) out += fmt::format("{} ran its {} code.\n", s->label, s->note);
  return out;
}

std::string cycles_table(const Algorithm& a, double mhz) {
  if (mhz <= 0) return {};
  std::vector<const Series*> shown;
  for (const Series& s : a.series)
    if (!s.mbps.empty()) shown.push_back(&s);
  if (shown.empty()) return {};
  // MHz / (10^6 bytes per second) is cycles per byte. The clock is the one
  // Google Benchmark read when the run began; under turbo the CPU may run
  // faster, so these are an upper bound's worth of comparable, not exact.
  std::string out = fmt::format("#### {}: cycles per byte at {:.0f} MHz\n\n", a.display, mhz);
  std::vector<std::string> header = {"bytes"};
  for (const Series* s : shown) header.push_back(s->label);
  out += row(header);
  out += row(std::vector<std::string>(header.size(), "---:"));
  for (const size_t len : a.lengths) {
    std::vector<std::string> cells = {std::to_string(len)};
    for (const Series* s : shown) {
      const std::optional<double> v = at(s, len);
      cells.push_back(v && *v > 0 ? fmt::format("{:.2f}", mhz / *v) : "-");
    }
    out += row(cells);
  }
  return out + "\n";
}

std::string finup2x_table(const Results& r) {
  if (r.finup2x.empty()) return {};
  const std::string family = r.finup2x.front().backend.substr(0, r.finup2x.front().backend.find('/'));
  const std::string len = r.finup2x_length ? std::to_string(r.finup2x_length) : "equal-length";
  std::string out = fmt::format("### {} finup_2x: two {}-byte messages after a salt, MB/s\n\n",
                                display_of(family), len);
  out += row({"backend", "salt bytes", "two single hashes", "finup_2x", "finup_2x / single"});
  out += row({"---", "---:", "---:", "---:", "---:"});
  std::vector<std::pair<std::string, std::string>> skipped;
  for (const Finup2x& f : r.finup2x) {
    const std::string name = short_name(f.backend);
    if (!f.pair_mbps && !f.finup_mbps) {
      if (std::none_of(skipped.begin(), skipped.end(), [&](const auto& s) { return s.first == name; }))
        skipped.emplace_back(name, f.skipped.empty() ? "no result" : f.skipped);
      continue;
    }
    out += row({fmt::format("{} ({})", name, f.two_way ? "2-way" : "sequential"), std::to_string(f.salt),
                mbps_text(f.pair_mbps), mbps_text(f.finup_mbps), ratio_text(ratio(f.finup_mbps, f.pair_mbps))});
  }
  out += "\n";
  out += not_run(skipped);
  return out;
}

namespace {

// A target's ratio with three decimals (1.046 must not read as the 1.05 it
// misses), or as many more as it takes for a miss never to read as the
// goal (0.9996 is not 1.000).
std::string measured_text(const Target& t) {
  if (!t.ratio) return "-";
  int decimals = 3;
  while (*t.ratio < t.goal && decimals < 6 && std::stod(fmt::format("{:.{}f}", *t.ratio, decimals)) >= t.goal)
    ++decimals;
  return fmt::format("{:.{}f}x", *t.ratio, decimals);
}

std::string shortfall_text(const Target& t) {
  const double p = t.shortfall_percent();
  return p < 0.05 ? "missed by less than 0.1%" : fmt::format("missed by {:.1f}%", p);
}

}  // namespace

std::string targets_table(const std::vector<Target>& targets) {
  std::string out = "### Speed targets, measured in this run (reported, never asserted)\n\n";
  out += row({"#", "ratio", "measured", "target", "verdict"});
  out += row({"---:", "---", "---:", "---:", "---"});
  for (const Target& t : targets) {
    std::string verdict = t.met() ? "met" : shortfall_text(t);
    if (!t.ratio) verdict = "not measured: " + t.missing;
    // A ratio from the wrong code path is shown, but does not count.
    else if (!t.missing.empty()) verdict += " (" + t.missing + ")";
    // A goal set for other CPUs: the ratio is shown, and counts for nothing.
    if (!t.judged()) verdict = (t.ratio ? "" : verdict + "; ") + "not judged here: " + t.not_judged;
    out += row({std::to_string(t.group), t.what, measured_text(t), fmt::format(">= {:.2f}x", t.goal),
                verdict});
  }
  return out;
}

std::string module_call_table(const Results& r) {
  if (r.module_calls.empty()) return {};
  std::string out =
      "### Module backends: called straight (their rows above) and through the abi guard (as the checks call them)\n\n";
  out += row({"backend", "bytes", "direct MB/s", "guarded MB/s", "the guard's cost"});
  out += row({"---", "---:", "---:", "---:", "---:"});
  std::vector<std::pair<std::string, std::string>> skipped;
  for (const ModuleCall& m : r.module_calls) {
    if (!m.direct_mbps && !m.guarded_mbps) {
      skipped.emplace_back(m.backend, m.skipped.empty() ? "no result" : m.skipped);
      continue;
    }
    const std::optional<double> cost = m.overhead_percent();
    out += row({m.backend, std::to_string(m.length), mbps_text(m.direct_mbps), mbps_text(m.guarded_mbps),
                cost ? fmt::format("{:+.0f}%", *cost) : "-"});
  }
  return out + "\n" + not_run(skipped);
}

std::string before_after_table(const Results& r, std::string_view suffix) {
  std::string out;
  for (const Algorithm& a : r.algorithms) {
    for (const Series& after : a.series) {
      if (after.anchor || !after.id.ends_with(suffix)) continue;
      const std::string before_id = after.id.substr(0, after.id.size() - suffix.size());
      const Series* before = a.find(before_id);
      out += fmt::format("### {}: {} before and after the series, MB/s\n\n", a.display, before_id);
      if (after.mbps.empty() || (before && before->mbps.empty())) {
        const Series& idle = after.mbps.empty() ? after : *before;
        out += fmt::format("Not run here: {} ({}).\n\n", idle.id, idle.skipped.empty() ? "no result" : idle.skipped);
        continue;
      }
      out += row({"bytes", "before", "after", "after / before"});
      out += row({"---:", "---:", "---:", "---:"});
      for (const size_t len : a.lengths) {
        // A backend the series added has no "before": its row says so.
        const std::string change = before ? ratio_text(ratio(at(&after, len), at(before, len))) : "new";
        out += row({std::to_string(len), mbps_text(at(before, len)), mbps_text(at(&after, len)), change});
      }
      out += "\n";
    }
  }
  return out;
}

std::string markdown(const Results& r) {
  std::string out = "## lockstep bench\n\n";
  for (const auto& [k, v] : r.context) out += fmt::format("- {}: {}\n", k, v);
  out += "- MB/s: 10^6 bytes of message per second of CPU time; ratios divide MB/s\n\n";
  if (r.algorithms.empty() && r.finup2x.empty()) out += "No results.\n\n";
  for (const Algorithm& a : r.algorithms) out += algorithm_table(a) + "\n" + cycles_table(a, r.mhz) + call_cost_table(a, r.mhz);
  if (const std::string f = finup2x_table(r); !f.empty()) out += f + "\n";
  if (const std::string m = module_call_table(r); !m.empty()) out += m + "\n";
  if (const std::string k = kernel_fpu_table(r); !k.empty()) out += k + "\n";
  if (const std::string p = peer_table(r); !p.empty()) out += p + "\n";
  out += targets_table(targets(r));
  return out;
}

}  // namespace lockstep::cli::bench_report
