#include "bench/analyze/measured_cycles.h"

#include <fmt/format.h>

namespace lockstep::cli::analyze {

Measured measured_cycles_per_block(const bench_report::Series& s, std::size_t block_bytes, double mhz) {
  if (!s.skipped.empty()) return {{}, s.skipped};
  if (mhz <= 0) return {{}, "the run did not record the clock"};
  const auto short_run = s.mbps.find(kShortLength);
  const auto long_run = s.mbps.find(kLongLength);
  if (short_run == s.mbps.end() || long_run == s.mbps.end() || short_run->second <= 0 || long_run->second <= 0)
    return {{}, fmt::format("not measured at both {} and {} B", kShortLength, kLongLength)};
  // 10^6 bytes per second is 1000 / MB/s nanoseconds per byte.
  const double short_ns = static_cast<double>(kShortLength) * 1000 / short_run->second;
  const double long_ns = static_cast<double>(kLongLength) * 1000 / long_run->second;
  const double blocks = static_cast<double>(kLongLength - kShortLength) / static_cast<double>(block_bytes);
  return {(long_ns - short_ns) / blocks * mhz / 1000, ""};
}

}  // namespace lockstep::cli::analyze
