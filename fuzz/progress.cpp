#include "progress.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace lockstep::fuzz {

void progress_tick() {
  static const bool enabled = [] {
    const char* v = std::getenv("LOCKSTEP_FUZZ_PROGRESS");
    return v && *v == '1';
  }();
  if (!enabled) return;
  using Clock = std::chrono::steady_clock;
  static unsigned long long execs = 0;
  static Clock::time_point next = Clock::now() + std::chrono::seconds(1);
  ++execs;
  if ((execs & 63) != 0) return;  // look at the clock now and then only
  const Clock::time_point now = Clock::now();
  if (now < next) return;
  next = now + std::chrono::seconds(1);
  std::fprintf(stderr, "[lockstep] execs=%llu\n", execs);
}

}  // namespace lockstep::fuzz
