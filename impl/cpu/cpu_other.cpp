// Architectures without backends: no features, so every algorithm runs generic.
#include "cpu/cpu.h"

#if !defined(__x86_64__) && !defined(__aarch64__)
namespace lockstep::cpu {
Detection detect() { return {}; }
}  // namespace lockstep::cpu
#endif
