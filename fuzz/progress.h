// A once-a-second progress line from inside the harness, for `lockstep fuzz`
// (libFuzzer itself reports only at powers of two). Enabled by the
// environment variable LOCKSTEP_FUZZ_PROGRESS=1; prints to stderr
// "[lockstep] execs=N".
#pragma once

namespace lockstep::fuzz {
void progress_tick();
}  // namespace lockstep::fuzz
