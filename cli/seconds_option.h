// A duration option (bench --min-time, tree --bench-time): CLI11's number
// checks let "nan" through (every comparison with it is false) and "inf"
// too, and lockstep_bench then measures for ever.
#pragma once

#include <CLI/CLI.hpp>

namespace lockstep::cli {

// seconds_option accepts a finite number of seconds above 0 (or from 0 with
// `zero_allowed`), at least `min` unless 0, and at most `max`; anything
// else is a usage error naming the value.
CLI::Validator seconds_option(bool zero_allowed, double max, double min = 0);

}  // namespace lockstep::cli
