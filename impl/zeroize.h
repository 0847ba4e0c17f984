// zeroize clears secrets in a way the compiler may not drop as a dead store.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace lockstep {

inline void zeroize(void* p, size_t n) {
  std::memset(p, 0, n);
  // The empty asm reads `p`'s memory, so the memset is observable.
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

}  // namespace lockstep

namespace lockstep {

// wipe_stack clears the `Bytes` of stack just below its caller's frame.
// Called right after a function returns, from the same frame, it writes
// over where that function kept its locals and the compiler's spills of
// secret registers, which no zeroize() inside it can reach.
template <size_t Bytes>
[[gnu::noinline]] void wipe_stack() {
  unsigned char buf[Bytes];
  zeroize(buf, sizeof buf);
}

// Wiping<Bytes, Body>::call is Body followed by wipe_stack<Bytes>(): the
// entry a backend registers, so that nothing secret outlives the call (the
// residue column holds it to this, and fails a backend whose frames
// outgrow Bytes). Body must be [[gnu::noinline]]: inlined, its frame would
// be the caller's, above what wipe_stack reaches. Bytes is what Body's
// frames take (GCC's -fstack-usage for Body and what it calls, the pushes
// and calls between), not a round figure: clearing more costs every call,
// and at short lengths the wipe was most of a call's fixed cost. The wipe
// reaches memory only: a Body that leaves secrets in vector registers
// clears them itself.
template <size_t Bytes, auto Body>
struct Wiping;

template <size_t Bytes, class R, class... Args, R (*Body)(Args...)>
struct Wiping<Bytes, Body> {
  static R call(Args... args) {
    if constexpr (std::is_void_v<R>) {
      Body(args...);
      wipe_stack<Bytes>();
    } else {
      const R result = Body(args...);
      wipe_stack<Bytes>();
      return result;
    }
  }
};

}  // namespace lockstep
