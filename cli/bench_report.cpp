#include "bench_report.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog.h"
#include "xml_escape.h"

namespace lockstep::cli::bench_report {
namespace {

using nlohmann::json;

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

// The implementation part of a backend name: "sha256/x86-shani" -> "x86-shani".
std::string short_name(std::string_view backend) {
  const size_t slash = backend.find('/');
  return std::string(slash == std::string_view::npos ? backend : backend.substr(slash + 1));
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
  std::string label, error;
};

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
  const std::pair<const char*, std::string> rows[] = {
      {"CPU", cpu},
      {"features used", features},
      {"OpenSSL", openssl},
      {"Crypto++", get("cryptopp_version")},
      {"date", get("date")},
      {"load average", get("load_avg")},
  };
  for (const auto& [k, v] : rows)
    if (!v.empty()) r.context.emplace_back(k, v);
  if (const std::optional<size_t> len = number(get("lockstep_finup2x_length"))) r.finup2x_length = *len;
}

std::string mbps_text(std::optional<double> v) {
  if (!v) return "-";
  if (*v >= 100) return fmt::format("{:.0f}", *v);
  if (*v >= 10) return fmt::format("{:.1f}", *v);
  return fmt::format("{:.2f}", *v);
}

std::string ratio_text(std::optional<double> v) { return v ? fmt::format("{:.2f}x", *v) : "-"; }

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

// "x86-phe (needs phe, which this CPU lacks)", for every series that did not run.
std::string not_run(const std::vector<std::pair<std::string, std::string>>& skipped) {
  if (skipped.empty()) return {};
  std::string out = "Not run here:";
  for (size_t i = 0; i < skipped.size(); ++i)
    out += fmt::format("{} {} ({})", i ? "," : "", skipped[i].first, skipped[i].second);
  return out + ".\n";
}

// The chart's frame, in pixels.
constexpr double kWidth = 1000, kHeight = 560;
constexpr double kLeft = 80, kRight = 740, kTop = 78, kBottom = 480;
constexpr double kLegendX = 765;

// Backends in a colour each, generic in grey; anchors dashed, OpenSSL black.
std::string colour(const Series& s, size_t backend_index) {
  static constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                             "#9467bd", "#17becf", "#e377c2", "#bcbd22"};
  if (s.anchor) return s.id == "openssl" ? "#000000" : s.id == "cryptopp" ? "#8c564b" : "#e377c2";
  if (s.generic()) return "#7f7f7f";
  return kPalette[backend_index % std::size(kPalette)];
}

struct LogRange {
  double lo, hi;  // log10 of the ends
};

LogRange x_range(const Algorithm& a) {
  if (a.lengths.empty()) return {0, 1};
  double lo = std::log10(static_cast<double>(std::max<size_t>(a.lengths.front(), 1)));
  double hi = std::log10(static_cast<double>(std::max<size_t>(a.lengths.back(), 1)));
  if (hi - lo < 1e-9) lo -= 0.5, hi += 0.5;
  const double pad = (hi - lo) * 0.03;  // keeps end markers off the axes
  return {lo - pad, hi + pad};
}

// The nearest steps of 1, 2 and 5 per decade around every value, which are
// also where the grid lines go.
LogRange y_range(const Algorithm& a) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Series& s : a.series)
    for (const auto& [len, v] : s.mbps)
      if (v > 0) lo = std::min(lo, std::log10(v)), hi = std::max(hi, std::log10(v));
  if (lo > hi) return {0, 1};
  const double steps[] = {0, std::log10(2.0), std::log10(5.0), 1};
  const double lo_decade = std::floor(lo), hi_decade = std::floor(hi);
  double bottom = lo_decade, top = hi_decade + 1;
  for (const double s : steps)
    if (lo_decade + s <= lo + 1e-9) bottom = lo_decade + s;
  for (auto it = std::rbegin(steps); it != std::rend(steps); ++it)
    if (hi_decade + *it >= hi - 1e-9) top = hi_decade + *it;
  if (top - bottom < 0.3) top = bottom + 1;  // one value, or all alike
  return {bottom, top};
}

double y_position(LogRange y, double v) {
  return kBottom - (std::log10(v) - y.lo) / (y.hi - y.lo) * (kBottom - kTop);
}

bool power_of_two(size_t n) { return n && !(n & (n - 1)); }

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
    if (e.label.empty() && b.contains("label") && b["label"].is_string()) e.label = b["label"].get<std::string>();
  }

  Results r;
  if (j.contains("context")) read_context(r, j["context"]);
  for (const auto& [name, e] : entries) absorb(r, name, e);
  for (Algorithm& a : r.algorithms) {
    // Backends first, anchors after, each in the run's order.
    std::stable_partition(a.series.begin(), a.series.end(), [](const Series& s) { return !s.anchor; });
    for (Series& s : a.series) {
      if (!s.mbps.empty()) s.skipped.clear();
      for (const auto& [len, v] : s.mbps) a.lengths.push_back(len);
    }
    std::sort(a.lengths.begin(), a.lengths.end());
    a.lengths.erase(std::unique(a.lengths.begin(), a.lengths.end()), a.lengths.end());
  }
  for (Finup2x& f : r.finup2x)
    if (f.pair_mbps || f.finup_mbps) f.skipped.clear();
  return r;
}

std::vector<Target> targets(const Results& r) {
  std::vector<Target> out;
  // One ratio of two series of `alg` at `len`, or why it is missing.
  auto compare = [&](int group, std::string_view alg, std::string_view num, std::string_view den,
                     size_t len, double goal) {
    Target t;
    t.group = group;
    t.goal = goal;
    const Algorithm* a = r.find(alg);
    const Series* n = a ? a->find(num) : nullptr;
    const Series* d = a ? a->find(den) : nullptr;
    t.what = fmt::format("{} / {} @ {} B", num, anchor_label(den), len);
    t.ratio = ratio(at(n, len), at(d, len));
    if (!t.ratio) {
      for (const auto& [id, s] : {std::pair{num, n}, std::pair{den, d}}) {
        if (at(s, len)) continue;
        t.missing = s && !s->skipped.empty() ? fmt::format("{}: {}", id, s->skipped)
                                             : fmt::format("no {} result at {} B", id, len);
        break;
      }
    }
    out.push_back(std::move(t));
  };

  // 1. SHA-NI against OpenSSL: never slower on long messages, clearly faster
  //    on short ones, where call overhead dominates.
  compare(1, "sha256", "sha256/x86-shani", "openssl", 64, 1.5);
  compare(1, "sha256", "sha256/x86-shani", "openssl", 4096, 1.0);
  compare(1, "sha256", "sha256/x86-shani", "openssl", 16384, 1.0);

  // 2. The 2-way finup_2x against one stream: the same two messages hashed
  //    one after the other, from the same (empty) prefix.
  {
    Target t;
    t.group = 2;
    t.goal = 1.7;
    const size_t len = r.finup2x_length ? r.finup2x_length : 4096;
    t.what = fmt::format("finup_2x sha256/x86-shani / one stream @ {} B", len);
    if (const Finup2x* f = r.find_finup2x("sha256/x86-shani", 0)) {
      t.ratio = ratio(f->finup_mbps, f->pair_mbps);
      if (!t.ratio) t.missing = f->skipped.empty() ? "incomplete finup2x/pair results" : f->skipped;
      else if (!f->two_way) t.missing = "ran the sequential fallback, not a 2-way path";
    } else {
      t.missing = "no finup2x/sha256/x86-shani/salt0 result";
    }
    out.push_back(std::move(t));
  }

  // 3. The SHA-512 AVX2 schedule against OpenSSL on long messages.
  compare(3, "sha512", "sha512/x86-avx2", "openssl", 16384, 1.0);

  // 4. ChaCha with 16 blocks in zmm registers: twice the AVX2 code, and
  //    ahead of OpenSSL, from 1024 bytes on (the kernel's lengths there).
  for (const size_t len : {1024, 3173, 4096, 16384})
    compare(4, "chacha20", "chacha/x86-avx512f", "chacha/x86-avx2", len, 2.0);
  for (const size_t len : {1024, 3173, 4096, 16384})
    compare(4, "chacha20", "chacha/x86-avx512f", "openssl", len, 1.05);
  return out;
}

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

std::string targets_table(const std::vector<Target>& targets) {
  std::string out = "### Speed targets, measured in this run (reported, never asserted)\n\n";
  out += row({"#", "ratio", "measured", "target", "verdict"});
  out += row({"---:", "---", "---:", "---:", "---"});
  for (const Target& t : targets) {
    std::string verdict = t.met() ? "met" : fmt::format("missed by {:.1f}%", t.shortfall_percent());
    if (!t.ratio) verdict = "not measured: " + t.missing;
    // A ratio from the wrong code path is shown, but does not count.
    else if (!t.missing.empty()) verdict += " (" + t.missing + ")";
    // Three decimals: 1.046 must not read as the 1.05 it misses.
    const std::string measured = t.ratio ? fmt::format("{:.3f}x", *t.ratio) : "-";
    out += row({std::to_string(t.group), t.what, measured, fmt::format(">= {:.2f}x", t.goal), verdict});
  }
  return out;
}

std::string markdown(const Results& r) {
  std::string out = "## lockstep bench\n\n";
  for (const auto& [k, v] : r.context) out += fmt::format("- {}: {}\n", k, v);
  out += "- MB/s: 10^6 bytes of message per second of CPU time; ratios divide MB/s\n\n";
  if (r.algorithms.empty() && r.finup2x.empty()) out += "No results.\n\n";
  for (const Algorithm& a : r.algorithms) out += algorithm_table(a) + "\n";
  if (const std::string f = finup2x_table(r); !f.empty()) out += f + "\n";
  out += targets_table(targets(r));
  return out;
}

double x_position(const Algorithm& a, size_t length) {
  const LogRange x = x_range(a);
  const double v = std::log10(static_cast<double>(std::max<size_t>(length, 1)));
  return kLeft + (v - x.lo) / (x.hi - x.lo) * (kRight - kLeft);
}

std::string svg(const Algorithm& a, const Results& r) {
  const LogRange y = y_range(a);
  std::string out;
  auto put = [&out]<class... Args>(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
  };

  put(R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )svg"
      R"svg(font-family="sans-serif" font-size="12">)svg" "\n", kWidth, kHeight);
  put(R"svg(<rect width="{}" height="{}" fill="#ffffff"/>)svg" "\n", kWidth, kHeight);

  // Title, and what ran it underneath.
  put(R"svg(<text x="{}" y="28" font-size="18" font-weight="bold">{}</text>)svg" "\n", kLeft,
      xml_escape(a.display + " throughput by message length"));
  std::string sub;
  for (const auto& [k, v] : r.context)
    if (k == "CPU" || k == "OpenSSL" || k == "Crypto++") sub += (sub.empty() ? "" : "; ") + (k == "CPU" ? v : k + " " + v);
  put(R"svg(<text x="{}" y="48" fill="#555555">{}</text>)svg" "\n", kLeft, xml_escape(sub));

  // Horizontal grid at 1, 2 and 5 of each decade.
  for (int k = static_cast<int>(std::floor(y.lo)); k <= static_cast<int>(std::ceil(y.hi)); ++k) {
    for (const double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, k);
      if (std::log10(v) < y.lo - 1e-9 || std::log10(v) > y.hi + 1e-9) continue;
      const double py = y_position(y, v);
      put(R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="1"/>)svg" "\n",
          kLeft, py, kRight, py, m == 1 ? "#cccccc" : "#eeeeee");
      put(R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)svg" "\n", kLeft - 6, py + 4,
          v >= 1 ? fmt::format("{:.0f}", v) : fmt::format("{:g}", v));
    }
  }

  // A vertical grid line and tick at every length; labels where they fit,
  // powers of two first (127 and 128 are a pixel apart).
  std::vector<size_t> order = a.lengths;
  std::stable_partition(order.begin(), order.end(), power_of_two);
  std::vector<std::pair<double, double>> placed;  // label centre, half width
  for (const size_t len : a.lengths) {
    const double px = x_position(a, len);
    put(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#eeeeee" stroke-width="1"/>)svg" "\n",
        px, kTop, kBottom);
    put(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#333333" stroke-width="1"/>)svg" "\n",
        px, kBottom, kBottom + 5);
  }
  for (const size_t len : order) {
    const double px = x_position(a, len);
    const double half = 3.5 * static_cast<double>(std::to_string(len).size()) + 2;
    const bool clash = std::any_of(placed.begin(), placed.end(), [&](const auto& p) {
      return std::abs(p.first - px) < p.second + half;
    });
    if (clash) continue;
    placed.emplace_back(px, half);
    put(R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)svg" "\n", px, kBottom + 18, len);
  }

  // Axes and their labels.
  put(R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#333333"/>)svg" "\n", kLeft, kTop, kBottom);
  put(R"svg(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#333333"/>)svg" "\n", kLeft, kBottom, kRight);
  put(R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">message length (bytes, log scale)</text>)svg" "\n",
      (kLeft + kRight) / 2, kBottom + 40);
  put(R"svg(<text transform="translate(22 {:.1f}) rotate(-90)" text-anchor="middle">throughput (MB/s, log scale)</text>)svg" "\n",
      (kTop + kBottom) / 2);

  // The series, and the legend beside the plot.
  size_t backend_index = 0, legend_row = 0;
  std::vector<std::string> missing;
  for (const Series& s : a.series) {
    const std::string c = colour(s, backend_index);
    if (!s.anchor && !s.generic()) ++backend_index;
    if (s.mbps.empty()) {
      missing.push_back(s.label);
      continue;
    }
    const char* dash = s.anchor ? R"svg( stroke-dasharray="7 4")svg" : "";
    std::string points;
    for (const auto& [len, v] : s.mbps)
      if (v > 0) points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", x_position(a, len), y_position(y, v));
    put(R"svg(<polyline data-series="{}" fill="none" stroke="{}" stroke-width="2"{} points="{}"/>)svg" "\n",
        xml_escape(s.id), c, dash, points);
    for (const auto& [len, v] : s.mbps)
      if (v > 0)
        put(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="2.5" fill="{}"><title>{}, {} bytes: {} MB/s</title></circle>)svg" "\n",
            x_position(a, len), y_position(y, v), c, xml_escape(s.label), len, mbps_text(v));
    const double ly = kTop + 8 + 22 * static_cast<double>(legend_row++);
    put(R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="2"{}/>)svg" "\n",
        kLegendX, ly, kLegendX + 28, ly, c, dash);
    const std::string name = s.label + (s.note.empty() ? "" : " (" + s.note + ")");
    put(R"svg(<text x="{:.1f}" y="{:.1f}">{}</text>)svg" "\n", kLegendX + 36, ly + 4, xml_escape(name));
  }
  // Under the legend: what the dashes mean, and what did not run.
  double note_y = kTop + 8 + 22 * static_cast<double>(legend_row) + 8;
  put(R"svg(<text x="{:.1f}" y="{:.1f}" fill="#777777">dashed: third-party anchors</text>)svg" "\n",
      kLegendX, note_y);
  if (!missing.empty()) {
    put(R"svg(<text x="{:.1f}" y="{:.1f}" fill="#777777">not run here:</text>)svg" "\n", kLegendX, note_y += 18);
    for (const std::string& m : missing)
      put(R"svg(<text x="{:.1f}" y="{:.1f}" fill="#777777">{}</text>)svg" "\n", kLegendX + 12, note_y += 16,
          xml_escape(m));
  }
  put("</svg>\n");
  return out;
}

}  // namespace lockstep::cli::bench_report
