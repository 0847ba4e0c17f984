// The host's measured cycles per block of one backend, from a bench run:
// the slope between two long messages. Not the report's fit over every
// length (report.h's call_cost): that one's per-block cost also
// takes in the short lengths' tails and bounce buffers, while a hot loop's
// prediction is to be judged against the loop alone.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "bench_report/report.h"

namespace lockstep::cli::analyze {

// The two lengths the stand-in reads; `lockstep bench --analyze` runs
// these alone.
inline constexpr std::size_t kShortLength = 4096, kLongLength = 16384;

struct Measured {
  std::optional<double> cycles_per_block;
  std::string problem;  // why not, when unset
};

// measured_cycles_per_block is (time at 16384 B - time at 4096 B) over the
// blocks between them, at `mhz`: the fixed cost of a call (init, padding,
// the last block) cancels out.
Measured measured_cycles_per_block(const bench_report::Series& s, std::size_t block_bytes, double mhz);

}  // namespace lockstep::cli::analyze
