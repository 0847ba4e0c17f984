// The kernel_fpu table: how the run modelled the kernel's FPU sections for
// the module rows (bench.h's KernelEntries), what the model costs, and how
// much of a module's time per call at short and long lengths is the model
// rather than the module's code. A kernel pays for the same save and
// restore, so the rows compare with lockstep's own as they would in a
// kernel only under the lazy model; this table says which one ran.
#include <fmt/format.h>

#include <algorithm>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"

namespace lockstep::cli::bench_report {

namespace {

using detail::at;
using detail::mbps_text;
using detail::row;

std::optional<double> lookup(const std::map<std::string, double>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? std::nullopt : std::optional<double>(it->second);
}

std::string ns_text(double ns) { return ns >= 100 ? fmt::format("{:.0f}", ns) : fmt::format("{:.1f}", ns); }

std::string model_line(const KernelFpu& k) {
  std::string out = "- model: " + k.model;
  if (k.model == "lazy")
    out += " (as the kernel runs a user task's sections: the first section of an entry into the kernel saves "
           "the user state, the return to user space restores it; one entry per call)";
  else if (k.model == "strict")
    out += " (as the checks run: every section saves the state at its start and restores it at its end)";
  if (!k.save.empty()) out += fmt::format(", {} + {}", k.save, k.restore);
  if (k.area) out += fmt::format(", area {} bytes", k.area);
  if (!k.xcr0.empty()) out += fmt::format(" (XCR0 {})", k.xcr0);
  return out + "\n";
}

std::string cost_line(const KernelFpu& k) {
  std::vector<std::string> parts;
  if (const auto e = lookup(k.entry_ns, "lazy"))
    parts.push_back("lazy: " + ns_text(*e) + " ns per entry (a section and the return)");
  if (const auto s = lookup(k.section_ns, "lazy")) parts.push_back(ns_text(*s) + " ns per further section");
  if (const auto s = lookup(k.section_ns, "strict")) parts.push_back("strict: " + ns_text(*s) + " ns per section");
  if (parts.empty()) return {};
  std::string out = "- the model's own cost: ";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out + "\n";
}

}  // namespace

std::optional<double> KernelFpu::ns_per_call(double sections) const {
  if (sections <= 0) return 0.0;
  if (model == "lazy") {
    const std::optional<double> entry = lookup(entry_ns, "lazy"), further = lookup(section_ns, "lazy");
    if (!entry || !further) return std::nullopt;
    return *entry + (sections - 1) * *further;
  }
  if (model == "strict") {
    const std::optional<double> each = lookup(section_ns, "strict");
    if (!each) return std::nullopt;
    return sections * *each;
  }
  return std::nullopt;
}

std::string kernel_fpu_table(const Results& r) {
  const KernelFpu& k = r.kernel_fpu;
  struct Line {
    const Algorithm* a;
    const Series* s;
    size_t len;
  };
  std::vector<Line> lines;
  for (const Algorithm& a : r.algorithms)
    for (const Series& s : a.series) {
      if (s.kernel_fpu_sections.empty()) continue;
      lines.push_back({&a, &s, s.kernel_fpu_sections.begin()->first});
      if (s.kernel_fpu_sections.size() > 1) lines.push_back({&a, &s, s.kernel_fpu_sections.rbegin()->first});
    }
  if (lines.empty() && k.entry_ns.empty() && k.section_ns.empty()) return {};

  std::string out = "### Kernel glue's FPU sections (kernel_fpu_begin/end), as modelled\n\n";
  if (!k.model.empty()) out += model_line(k);
  out += cost_line(k);
  if (lines.empty()) return out;
  out += "\n";
  out += row({"backend", "bytes", "MB/s", "sections per call", "the model's ns per call", "share of the call's time"});
  out += row({"---", "---:", "---:", "---:", "---:", "---:"});
  for (const Line& l : lines) {
    const double sections = l.s->kernel_fpu_sections.at(l.len);
    const std::optional<double> mbps = at(l.s, l.len);
    const std::optional<double> model_ns = k.ns_per_call(sections);
    // A call's time in ns: len bytes at mbps 10^6 bytes per second.
    const std::optional<double> call_ns =
        mbps && *mbps > 0 ? std::optional<double>(static_cast<double>(l.len) * 1e3 / *mbps) : std::nullopt;
    const std::string share =
        model_ns && call_ns ? fmt::format("{:.0f}%", std::min(100.0, *model_ns / *call_ns * 100)) : "-";
    out += row({l.s->id, std::to_string(l.len), mbps_text(mbps), fmt::format("{:.2f}", sections),
                model_ns ? ns_text(*model_ns) : "-", share});
  }
  return out + "\n";
}

}  // namespace lockstep::cli::bench_report
