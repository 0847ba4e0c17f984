// The speed targets as ratios measured in one run: reported, never
// asserted, with the reason when a ratio could not be measured here.
#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"

namespace lockstep::cli::bench_report {

using detail::anchor_label;
using detail::at;
using detail::ratio;

namespace {

// One ratio of two series of `alg` at `len`, or why it is missing.
Target ratio_target(const Results& r, int group, std::string_view alg, std::string_view num, std::string_view den,
                    size_t len, double goal, std::vector<std::string> judged_on = {}) {
  Target t;
  t.group = group;
  t.goal = goal;
  t.judged_on = std::move(judged_on);
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
  return t;
}

// The faster of the anchors at `len`: the peer a backend must match.
std::string_view faster_anchor(const Results& r, std::string_view alg, size_t len) {
  const Algorithm* a = r.find(alg);
  const std::optional<double> o = at(a ? a->find("openssl") : nullptr, len);
  const std::optional<double> c = at(a ? a->find("cryptopp") : nullptr, len);
  return c && (!o || *c > *o) ? "cryptopp" : "openssl";
}

// The 2-way finup_2x against one stream, or why it is missing.
Target finup_target(const Results& r, int group, double goal, std::vector<std::string> judged_on) {
  Target t;
  t.group = group;
  t.goal = goal;
  t.judged_on = std::move(judged_on);
  const size_t len = r.finup2x_length ? r.finup2x_length : 4096;
  t.what = fmt::format("finup_2x sha256/x86-shani / one stream @ {} B", len);
  if (const Finup2x* f = r.find_finup2x("sha256/x86-shani", 0)) {
    t.ratio = ratio(f->finup_mbps, f->pair_mbps);
    if (!t.ratio) t.missing = f->skipped.empty() ? "incomplete finup2x/pair results" : f->skipped;
    else if (!f->two_way) t.missing = "ran the sequential fallback, not a 2-way path";
  } else {
    t.missing = "no finup2x/sha256/x86-shani/salt0 result";
  }
  return t;
}

// A target set for other CPUs than this run's is reported but not judged, and says why.
void mark_not_judged(std::vector<Target>& out, const Results& r) {
  for (Target& t : out) {
    if (t.judged_on.empty() || std::ranges::count(t.judged_on, r.cpu_generation) > 0) continue;
    const std::string set_for = fmt::format("set for {}", fmt::join(t.judged_on, ", "));
    t.not_judged = r.cpu_generation.empty() ? set_for + "; the run did not record which CPU it was"
                                            : fmt::format("{}; this CPU is {}", set_for, r.cpu_generation);
  }
}

}  // namespace

std::vector<Target> targets(const Results& r) {
  std::vector<Target> out;
  // Issue T's goals, by its items.
  // 1. A call's fixed cost: SHA-NI level with the faster of OpenSSL and
  //    Crypto++ (both run SHA-NI where the CPU has it) at every length, and
  //    every SIMD ChaCha at least as fast as generic on calls of a block or
  //    less (the kernel sends those to its generic code).
  for (const size_t len : {1, 16, 64, 128, 1024, 4096, 16384})
    out.push_back(ratio_target(r, 1, "sha256", "sha256/x86-shani", faster_anchor(r, "sha256", len), len, 1.0));
  if (const Algorithm* a = r.find("chacha20")) {
    for (const Series& s : a->series) {
      if (s.anchor || s.generic() || s.module()) continue;
      for (const size_t len : {1, 16, 64})
        out.push_back(ratio_target(r, 1, "chacha20", s.id, "chacha/generic", len, 1.0));
    }
  }

  // 2. SHA-512 level with OpenSSL at every length on Intel and AMD, and
  //    the AVX-512VL code 1.2x ahead on long messages on Zen 4 and 5.
  for (const std::string_view b : {"sha512/x86-avx2", "sha512/x86-avx512vl"})
    for (const size_t len : {1, 16, 64, 128, 1024, 4096, 16384})
      out.push_back(ratio_target(r, 2, "sha512", b, "openssl", len, 1.0));
  out.push_back(ratio_target(r, 2, "sha512", "sha512/x86-avx512vl", "openssl", 16384, 1.2, {"Zen 4", "Zen 5"}));

  // 3. The 2-way finup_2x against one stream: seed 001's figure on the CPU
  //    it was measured on, and 1.5x on Intel.
  out.push_back(finup_target(r, 3, 1.64, {"Zen 5"}));
  out.push_back(finup_target(r, 3, 1.5, {"Intel"}));

  // 4. ChaCha in zmm registers ahead of OpenSSL's 512-bit code from 128
  //    bytes to a kilobyte, keeping twice the ymm code from 4 KiB (seed 004).
  for (const size_t len : {128, 256, 512, 1024})
    out.push_back(ratio_target(r, 4, "chacha20", "chacha/x86-avx512f", "openssl", len, 1.0));
  for (const size_t len : {4096, 16384})
    out.push_back(ratio_target(r, 4, "chacha20", "chacha/x86-avx512f", "chacha/x86-avx2", len, 2.0));

  mark_not_judged(out, r);
  return out;
}

}  // namespace lockstep::cli::bench_report
