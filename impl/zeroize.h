// zeroize clears secrets in a way the compiler may not drop as a dead store.
#pragma once

#include <cstddef>
#include <cstring>

namespace lockstep {

inline void zeroize(void* p, size_t n) {
  std::memset(p, 0, n);
  // The empty asm reads `p`'s memory, so the memset is observable.
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

}  // namespace lockstep
