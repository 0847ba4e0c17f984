#include "bench/analyze/analyze_report.h"

#include <fmt/format.h>

namespace lockstep::cli::analyze {
namespace {

std::string number(const Cell& c) { return c.value ? fmt::format("{:.1f}", *c.value) : "-"; }

// percent is signed, except where it rounds to nothing ("-0%" reads oddly).
std::string percent(double p) {
  const std::string s = fmt::format("{:+.0f}%", p);
  return s == "-0%" || s == "+0%" ? "0%" : s;
}

// without_parameters cuts a demangled function's parameter list: the
// table shows which function, its signature is noise.
std::string without_parameters(const std::string& name) {
  if (!name.ends_with(')')) return name;
  int depth = 0;
  for (size_t k = name.size(); k-- > 0;) {
    if (name[k] == ')') ++depth;
    if (name[k] == '(' && --depth == 0) return name.substr(0, k);
  }
  return name;
}

// why lists the reasons for one backend's "-" cells: one line where every
// model's is the same.
std::vector<std::string> why(const Analysis& a, const BackendAnalysis& b) {
  std::vector<std::string> out;
  std::string shared;
  bool all_same = true;
  for (const std::string& m : a.models) {
    const auto it = b.predicted.find(m);
    const std::string problem = it == b.predicted.end() ? "not predicted" : it->second.value ? "" : it->second.problem;
    if (m == a.models.front()) shared = problem;
    all_same = all_same && problem == shared;
  }
  if (all_same && !shared.empty()) {
    out.push_back(fmt::format("{}: every model: {}", b.backend, shared));
  } else {
    for (const std::string& m : a.models) {
      const auto it = b.predicted.find(m);
      if (it == b.predicted.end()) out.push_back(fmt::format("{}: {}: not predicted", b.backend, m));
      else if (!it->second.value) out.push_back(fmt::format("{}: {}: {}", b.backend, m, it->second.problem));
    }
  }
  if (!b.measured.value) out.push_back(fmt::format("{}: host measured: {}", b.backend, b.measured.problem));
  return out;
}

}  // namespace

std::optional<double> error_percent(const Analysis& a, const BackendAnalysis& b) {
  const auto it = b.predicted.find(a.host_model);
  if (a.host_model.empty() || it == b.predicted.end() || !it->second.value || !b.measured.value ||
      *b.measured.value <= 0)
    return std::nullopt;
  return (*it->second.value - *b.measured.value) / *b.measured.value * 100;
}

std::string analyze_markdown(const Analysis& a) {
  std::string s = "### Predicted cycles per block (llvm-mca), beside this host's\n\n";
  s += fmt::format(
      "Each backend's hot loop as built in {}, simulated by llvm-mca for each model; work outside that loop "
      "is not counted. Host measured: (time at 16384 B - time at 4096 B) over the blocks between, at {}. ",
      a.binary, a.mhz > 0 ? fmt::format("{:.0f} MHz", a.mhz) : "an unknown clock");
  if (a.host_model.empty())
    s += fmt::format("No model stands for this host ({}): no error on host.\n\n",
                     a.host_generation.empty() ? "CPU generation unknown" : a.host_generation);
  else if (a.host_model_guessed)
    s += fmt::format("Error on host: {}'s prediction against the measurement, + where it predicts more cycles "
                     "({} for any {} host: a guess).\n\n",
                     a.host_model, a.host_model, a.host_generation);
  else
    s += fmt::format("Error on host: {}'s prediction against the measurement, + where it predicts more cycles "
                     "({} host).\n\n", a.host_model, a.host_generation);

  s += "| backend |";
  for (const std::string& m : a.models) s += fmt::format(" {} |", m);
  s += " host measured | error on host |\n|---|";
  for (size_t k = 0; k < a.models.size(); ++k) s += "---:|";
  s += "---:|---:|\n";
  std::vector<std::string> reasons;
  for (const BackendAnalysis& b : a.backends) {
    s += fmt::format("| {} |", b.backend);
    for (const std::string& m : a.models) {
      const auto it = b.predicted.find(m);
      s += fmt::format(" {} |", it == b.predicted.end() ? "-" : number(it->second));
    }
    const std::optional<double> error = error_percent(a, b);
    s += fmt::format(" {} | {} |\n", number(b.measured), error ? percent(*error) : "-");
    for (std::string& r : why(a, b)) reasons.push_back(std::move(r));
  }
  if (!reasons.empty()) {
    s += "\nWhere a cell is \"-\":\n\n";
    for (const std::string& r : reasons) s += fmt::format("- {}\n", r);
  }

  s += "\n#### The loops predicted\n\n| backend | function | loop at | instructions | blocks per pass |\n"
       "|---|---|---:|---:|---:|\n";
  for (const BackendAnalysis& b : a.backends) {
    if (b.function.empty()) continue;
    s += fmt::format("| {} | `{}` | {:#x} | {} | {:.3g} |\n", b.backend, without_parameters(b.function), b.address,
                     b.instructions, b.blocks_per_pass);
  }
  return s;
}

}  // namespace lockstep::cli::analyze
