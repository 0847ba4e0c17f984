// The speed targets as ratios measured in one run: reported, never
// asserted, with the reason when a ratio could not be measured here.
#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench_report.h"
#include "bench_report_internal.h"

namespace lockstep::cli::bench_report {

using detail::anchor_label;
using detail::at;
using detail::ratio;

std::vector<Target> targets(const Results& r) {
  std::vector<Target> out;
  // One ratio of two series of `alg` at `len`, or why it is missing.
  auto compare = [&](int group, std::string_view alg, std::string_view num, std::string_view den,
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
    out.push_back(std::move(t));
  };

  // 1. SHA-NI against OpenSSL: never slower on long messages, clearly faster
  //    on short ones, where call overhead dominates.
  compare(1, "sha256", "sha256/x86-shani", "openssl", 64, 1.5);
  compare(1, "sha256", "sha256/x86-shani", "openssl", 4096, 1.0);
  compare(1, "sha256", "sha256/x86-shani", "openssl", 16384, 1.0);

  // 2. The 2-way finup_2x against one stream: the same two messages hashed
  //    one after the other, from the same (empty) prefix.
  auto finup = [&](int group, double goal, std::vector<std::string> judged_on) {
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
    out.push_back(std::move(t));
  };
  finup(2, 1.7, {});

  // 3. The SHA-512 AVX2 schedule against OpenSSL, on a kilobyte (where a
  //    call's fixed costs still show) and on long messages, on the CPUs
  //    where it lost (AMD Zen 4 and Zen 5) and Intel alike.
  const std::vector<std::string> zen45_intel = {"Zen 4", "Zen 5", "Intel"};
  compare(3, "sha512", "sha512/x86-avx2", "openssl", 1024, 1.0, zen45_intel);
  compare(3, "sha512", "sha512/x86-avx2", "openssl", 16384, 1.0, zen45_intel);

  // 4. ChaCha with 16 blocks in zmm registers: twice the AVX2 code, and
  //    ahead of OpenSSL, from 1024 bytes on (the kernel's lengths there).
  for (const size_t len : {1024, 3173, 4096, 16384})
    compare(4, "chacha20", "chacha/x86-avx512f", "chacha/x86-avx2", len, 2.0);
  for (const size_t len : {1024, 3173, 4096, 16384})
    compare(4, "chacha20", "chacha/x86-avx512f", "openssl", len, 1.05);

  // 5. An AVX-512VL SHA-512 (vprorq, vpternlogq) well ahead of OpenSSL on
  //    AMD's AVX-512 parts, and not behind it on Intel's.
  compare(5, "sha512", "sha512/x86-avx512vl", "openssl", 16384, 1.2, {"Zen 4", "Zen 5"});
  compare(5, "sha512", "sha512/x86-avx512vl", "openssl", 16384, 1.0, {"Intel"});

  // 6. Short ChaCha calls: every SIMD backend of lockstep's at least as fast
  //    as generic (the kernel sends calls of a block or less to its generic
  //    code).
  if (const Algorithm* a = r.find("chacha20")) {
    for (const Series& s : a->series) {
      if (s.anchor || s.generic() || s.module()) continue;
      for (const size_t len : {1, 16, 64}) compare(6, "chacha20", s.id, "chacha/generic", len, 1.0);
    }
  }

  // 7. finup_2x at seed 001's figure, on the CPU it was measured on.
  finup(7, 1.64, {"Zen 5"});

  for (Target& t : out) {
    if (t.judged_on.empty() || std::ranges::count(t.judged_on, r.cpu_generation) > 0) continue;
    const std::string set_for = fmt::format("set for {}", fmt::join(t.judged_on, ", "));
    t.not_judged = r.cpu_generation.empty() ? set_for + "; the run did not record which CPU it was"
                                            : fmt::format("{}; this CPU is {}", set_for, r.cpu_generation);
  }
  return out;
}

}  // namespace lockstep::cli::bench_report
