// Reading lockstep_bench's JSON into Results: benchmark names sorted into
// algorithms, series and finup_2x pairs, repetitions reduced to medians, and
// the run's context for the headers.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"
#include "partition.h"
#include "catalog.h"

namespace lockstep::cli::bench_report {

namespace detail {

std::string display_of(std::string_view alg) {
  if (const catalog::HashAlgorithm* h = catalog::find_hash(alg)) return std::string(h->display);
  if (const catalog::CipherAlgorithm* c = catalog::find_cipher(alg)) return std::string(c->display);
  return std::string(alg);
}

std::string anchor_label(std::string_view id) {
  if (id == "openssl") return "OpenSSL";
  if (id == "cryptopp") return "Crypto++";
  return std::string(id);
}

std::string short_name(std::string_view backend) {
  const size_t slash = backend.find('/');
  return std::string(slash == std::string_view::npos ? backend : backend.substr(slash + 1));
}

}  // namespace detail

namespace {

using nlohmann::json;
using detail::anchor_label;
using detail::display_of;
using detail::short_name;

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t at; (at = s.find(sep, start)) != std::string_view::npos; start = at + 1)
    out.emplace_back(s.substr(start, at - start));
  out.emplace_back(s.substr(start));
  return out;
}

std::string join(const std::vector<std::string>& parts, size_t from, size_t to, char sep) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out += sep;
    out += parts[i];
  }
  return out;
}

// A whole decimal number, or nothing: names with other tails are not ours.
std::optional<size_t> number(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  size_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<size_t>(c - '0');
  }
  return v;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string text_of(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:.2f}", v.get<double>());
  if (v.is_array()) {
    std::string out;
    for (const json& e : v) out += (out.empty() ? "" : " ") + text_of(e);
    return out;
  }
  return v.dump();
}

// One benchmark's runs, before they are sorted into tables.
struct Entry {
  std::vector<double> mbps;
  std::vector<double> sections;  // kernel_fpu sections per call
  std::vector<double> ns;        // CPU time per iteration, for kfpu/
  std::string label, error;
};

// Google Benchmark's time units, in ns.
std::optional<double> ns_per_unit(const json& b) {
  const std::string unit =
      b.contains("time_unit") && b["time_unit"].is_string() ? b["time_unit"].get<std::string>() : "ns";
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return std::nullopt;
}

Series& series_of(Algorithm& a, const std::string& id, bool anchor) {
  for (Series& s : a.series)
    if (s.id == id) return s;
  Series s;
  s.id = id;
  s.anchor = anchor;
  s.label = anchor ? anchor_label(id) : short_name(id);
  a.series.push_back(std::move(s));
  return a.series.back();
}

Algorithm& algorithm_of(Results& r, const std::string& name) {
  for (Algorithm& a : r.algorithms)
    if (a.name == name) return a;
  r.algorithms.push_back(Algorithm{name, display_of(name), {}, {}});
  return r.algorithms.back();
}

Finup2x& finup_of(Results& r, const std::string& backend, size_t salt) {
  for (Finup2x& f : r.finup2x)
    if (f.backend == backend && f.salt == salt) return f;
  r.finup2x.push_back(Finup2x{backend, salt, {}, {}, false, {}});
  return r.finup2x.back();
}

ModuleCall& module_call_of(Results& r, const std::string& backend, size_t length) {
  for (ModuleCall& m : r.module_calls)
    if (m.backend == backend && m.length == length) return m;
  r.module_calls.push_back(ModuleCall{backend, length, {}, {}, {}});
  return r.module_calls.back();
}

// Sorts one benchmark into `r` by its name (bench/bench.h); false if the
// name is not one of lockstep_bench's.
bool absorb(Results& r, const std::string& name, const Entry& e) {
  const std::vector<std::string> t = split(name, '/');
  const size_t n = t.size();
  const std::optional<double> value =
      e.mbps.empty() ? std::nullopt : std::optional<double>(median(e.mbps));
  if (t[0] == "hash" || t[0] == "crypt" || t[0] == "anchor") {
    const bool anchor = t[0] == "anchor";
    if (anchor ? n != 4 : n < 5) return false;
    const std::optional<size_t> len = number(t[n - 1]);
    if (!len) return false;
    Series& s = series_of(algorithm_of(r, t[1]), join(t, 2, n - 1, '/'), anchor);
    if (value) s.mbps[*len] = *value;
    if (!e.sections.empty()) s.kernel_fpu_sections[*len] = median(e.sections);
    if (s.note.empty()) s.note = e.label;
    if (s.skipped.empty()) s.skipped = e.error;
    return true;
  }
  if ((t[0] == "finup2x" || t[0] == "pair") && n >= 3 && t[n - 1].starts_with("salt")) {
    const std::optional<size_t> salt = number(std::string_view(t[n - 1]).substr(4));
    if (!salt) return false;
    Finup2x& f = finup_of(r, join(t, 1, n - 1, '/'), *salt);
    (t[0] == "finup2x" ? f.finup_mbps : f.pair_mbps) = value;
    f.two_way = f.two_way || e.label == "2-way";
    if (f.skipped.empty()) f.skipped = e.error;
    return true;
  }
  if (t[0] == "modcall" && n >= 5 && (t[n - 1] == "direct" || t[n - 1] == "guarded")) {
    const std::optional<size_t> len = number(t[n - 2]);
    if (!len) return false;
    ModuleCall& m = module_call_of(r, join(t, 2, n - 2, '/'), *len);
    (t[n - 1] == "direct" ? m.direct_mbps : m.guarded_mbps) = value;
    if (m.skipped.empty()) m.skipped = e.error;
    return true;
  }
  if (t[0] == "kfpu" && n == 3 && (t[2] == "entry" || t[2] == "section")) {
    if (!e.ns.empty()) (t[2] == "entry" ? r.kernel_fpu.entry_ns : r.kernel_fpu.section_ns)[t[1]] = median(e.ns);
    return true;
  }
  return false;
}

void read_context(Results& r, const json& c) {
  if (!c.is_object()) return;
  auto get = [&](const char* key) { return c.contains(key) ? text_of(c[key]) : std::string(); };
  std::string cpu = get("lockstep_cpu");
  if (const std::string n = get("num_cpus"); !n.empty())
    cpu += fmt::format("{}{} CPUs at {} MHz", cpu.empty() ? "" : ", ", n, get("mhz_per_cpu"));
  // OpenSSL's version string begins with its name.
  std::string openssl = get("openssl_version");
  if (openssl.starts_with("OpenSSL ")) openssl.erase(0, 8);
  std::string features = get("lockstep_cpu_features");
  if (const std::string mask = get("lockstep_cpu_mask"); !mask.empty())
    features += " (LOCKSTEP_CPU=" + mask + ")";
  r.cpu_generation = get("lockstep_cpu_generation");
  std::string id = get("lockstep_cpu_id");
  if (!r.cpu_generation.empty()) id += (id.empty() ? "" : ": ") + r.cpu_generation;
  const std::pair<const char*, std::string> rows[] = {
      {"CPU", cpu},
      {"CPU identity", id},
      {"features used", features},
      {"OpenSSL", openssl},
      {"Crypto++", get("cryptopp_version")},
      {"date", get("date")},
      {"load average", get("load_avg")},
  };
  for (const auto& [k, v] : rows)
    if (!v.empty()) r.context.emplace_back(k, v);
  if (const std::optional<size_t> len = number(get("lockstep_finup2x_length"))) r.finup2x_length = *len;
  r.kernel_fpu.model = get("lockstep_kernel_fpu_model");
  r.kernel_fpu.save = get("lockstep_kernel_fpu_save");
  r.kernel_fpu.restore = get("lockstep_kernel_fpu_restore");
  r.kernel_fpu.xcr0 = get("lockstep_kernel_fpu_xcr0");
  if (const std::optional<size_t> area = number(get("lockstep_kernel_fpu_area"))) r.kernel_fpu.area = *area;
  if (c.contains("mhz_per_cpu") && c["mhz_per_cpu"].is_number() && c["mhz_per_cpu"].get<double>() > 0)
    r.mhz = c["mhz_per_cpu"].get<double>();
}

// Each backend's role and declared needs (bench.h's describe_backends),
// onto the series of that backend.
void read_backends(Results& r, const json& c) {
  if (!c.is_object()) return;
  constexpr std::string_view kPrefix = "lockstep_backend/";
  for (const auto& [key, value] : c.items()) {
    if (!key.starts_with(kPrefix) || !value.is_string()) continue;
    const std::string v = value.get<std::string>();
    const size_t semi = v.find(';');
    if (semi == std::string::npos) continue;
    const std::string_view id = std::string_view(key).substr(kPrefix.size());
    for (Algorithm& a : r.algorithms)
      for (Series& s : a.series)
        if (!s.anchor && s.id == id) {
          s.role = v.substr(0, semi);
          s.needs = v.substr(semi + 1);
        }
  }
}

}  // namespace

const Series* Algorithm::find(std::string_view id) const {
  for (const Series& s : series)
    if (s.id == id) return &s;
  return nullptr;
}

const Algorithm* Results::find(std::string_view name) const {
  for (const Algorithm& a : algorithms)
    if (a.name == name) return &a;
  return nullptr;
}

const Finup2x* Results::find_finup2x(std::string_view backend, size_t salt) const {
  for (const Finup2x& f : finup2x)
    if (f.backend == backend && f.salt == salt) return &f;
  return nullptr;
}

Results parse(const json& j) {
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
    throw std::runtime_error("not Google Benchmark JSON: no \"benchmarks\" array");
  // Runs by name in first-seen order; repetitions share a name.
  std::vector<std::pair<std::string, Entry>> entries;
  for (const json& b : j["benchmarks"]) {
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string()) continue;
    // Aggregates (mean, median, stddev) would count twice: the median of
    // the plain runs is taken below instead.
    if (b.contains("run_type") && b["run_type"] != "iteration") continue;
    const std::string name = b.contains("run_name") && b["run_name"].is_string()
                                 ? b["run_name"].get<std::string>()
                                 : b["name"].get<std::string>();
    auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == name; });
    if (it == entries.end()) it = entries.insert(entries.end(), {name, Entry{}});
    Entry& e = it->second;
    // Google Benchmark 1.7 says "error_occurred"; 1.8 adds "skipped".
    const bool failed = (b.contains("error_occurred") && b["error_occurred"] == true) ||
                        (b.contains("skipped") && b["skipped"] == true);
    if (failed) {
      for (const char* key : {"error_message", "skip_message"})
        if (e.error.empty() && b.contains(key) && b[key].is_string()) e.error = b[key].get<std::string>();
      if (e.error.empty()) e.error = "failed";
      continue;
    }
    if (b.contains("bytes_per_second") && b["bytes_per_second"].is_number())
      e.mbps.push_back(b["bytes_per_second"].get<double>() / 1e6);
    if (b.contains("kernel_fpu_sections") && b["kernel_fpu_sections"].is_number())
      e.sections.push_back(b["kernel_fpu_sections"].get<double>());
    if (b.contains("cpu_time") && b["cpu_time"].is_number())
      if (const std::optional<double> unit = ns_per_unit(b)) e.ns.push_back(b["cpu_time"].get<double>() * *unit);
    if (e.label.empty() && b.contains("label") && b["label"].is_string()) e.label = b["label"].get<std::string>();
  }

  Results r;
  if (j.contains("context")) read_context(r, j["context"]);
  for (const auto& [name, e] : entries) absorb(r, name, e);
  if (j.contains("context")) read_backends(r, j["context"]);
  for (Algorithm& a : r.algorithms) {
    // Backends first, anchors after, each in the run's order.
    partition_stably(a.series, [](const Series& s) { return !s.anchor; });
    for (Series& s : a.series) {
      if (!s.mbps.empty()) s.skipped.clear();
      for (const auto& [len, v] : s.mbps) a.lengths.push_back(len);
    }
    std::sort(a.lengths.begin(), a.lengths.end());
    a.lengths.erase(std::unique(a.lengths.begin(), a.lengths.end()), a.lengths.end());
  }
  for (Finup2x& f : r.finup2x)
    if (f.pair_mbps || f.finup_mbps) f.skipped.clear();
  for (ModuleCall& m : r.module_calls)
    if (m.direct_mbps || m.guarded_mbps) m.skipped.clear();
  return r;
}

}  // namespace lockstep::cli::bench_report
