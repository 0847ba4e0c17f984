// The cost of a call, split: time per message = fixed + per_block * blocks,
// fitted over every length a series ran. At 16 KiB every backend is near
// the machine's limit and the per-block cost is what differs; at 1 to 128
// bytes it is the fixed cost (the front end's layers, dispatch, the stack
// wipe), and a regression there hides in MB/s columns that are dominated
// by long messages. The fit makes both numbers a row of every report.
#include <cmath>

#include <fmt/format.h>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"
#include "catalog.h"

namespace lockstep::cli::bench_report {

namespace {

using detail::row;

// The compressions (or keystream blocks) one message of `len` bytes takes:
// a SHA-2 message is padded with 0x80 and a length field of an eighth of
// a block, so 55 bytes are one SHA-256 block and 56 two; a ChaCha message
// takes a block per started 64 bytes.
std::optional<size_t> blocks(std::string_view alg, size_t len) {
  if (const catalog::HashAlgorithm* h = catalog::find_hash(alg)) {
    const size_t trailer = 1 + h->block_size / 8;
    return (len + trailer + h->block_size - 1) / h->block_size;
  }
  if (catalog::find_cipher(alg)) return (len + 63) / 64;
  return std::nullopt;
}

}  // namespace

std::optional<CallCost> call_cost(const Algorithm& a, const Series& s) {
  // Weighted least squares with weights 1/t^2: each length's relative error
  // counts alike, so the 1-byte point decides the fixed cost as much as the
  // 16 KiB one decides the slope (plain least squares would let the long
  // messages' noise swamp the short ones).
  double sw = 0, swx = 0, swy = 0, swxx = 0, swxy = 0;
  std::vector<std::pair<double, double>> points;  // blocks, ns per message
  for (const auto& [len, mbps] : s.mbps) {
    const std::optional<size_t> n = blocks(a.name, len);
    if (!n || mbps <= 0 || len == 0) continue;
    const double t = static_cast<double>(len) * 1e3 / mbps;  // ns: bytes / (10^6 bytes/s) * 10^9
    const double x = static_cast<double>(*n), w = 1 / (t * t);
    sw += w, swx += w * x, swy += w * t, swxx += w * x * x, swxy += w * x * t;
    points.emplace_back(x, t);
  }
  const double det = sw * swxx - swx * swx;
  if (points.size() < 3 || std::abs(det) <= 1e-12 * sw * swxx) return std::nullopt;
  CallCost c;
  c.block_ns = (sw * swxy - swx * swy) / det;
  c.fixed_ns = (swy - c.block_ns * swx) / sw;
  c.points = points.size();
  for (const auto& [x, t] : points)
    c.worst_residual = std::max(c.worst_residual, std::abs(c.fixed_ns + c.block_ns * x - t) / t);
  return c;
}

std::string call_cost_table(const Algorithm& a, double mhz) {
  std::string out;
  for (const Series& s : a.series) {
    const std::optional<CallCost> c = call_cost(a, s);
    if (!c) continue;
    const auto cycles = [mhz](double ns) { return mhz > 0 ? fmt::format("{:.0f}", ns * mhz / 1e3) : "-"; };
    out += row({s.label, fmt::format("{:.1f}", c->fixed_ns), cycles(c->fixed_ns), fmt::format("{:.1f}", c->block_ns),
                cycles(c->block_ns), fmt::format("{:.0f}%", c->worst_residual * 100)});
  }
  if (out.empty()) return {};
  const std::string clock = mhz > 0 ? fmt::format(", cycles at {:.0f} MHz", mhz) : "";
  return fmt::format("#### {}: cost of a call, fitted as fixed + per block{}\n\n", a.display, clock) +
         row({"", "fixed ns", "fixed cycles", "ns per block", "cycles per block", "worst fit error"}) +
         row({"---", "---:", "---:", "---:", "---:", "---:"}) + out +
         "\nFitted over every length measured, each weighted by its relative error; "
         "a block is one compression (SHA-2, padding included) or 64 bytes of keystream.\n\n";
}

}  // namespace lockstep::cli::bench_report
