// The block walk every ChaCha backend shares: whole groups of W blocks go
// straight from src to dst; the tail goes through a stack buffer, so that a
// wide kernel never reads past src + len or writes past dst + len.
#pragma once

#include <cstring>

#include "chacha/chacha.h"
#include "zeroize.h"

namespace lockstep::chacha {

// crypt_wide runs `kernel(state, dst, src, rounds)`, which XORs W blocks of
// keystream at counters state.x[12] .. + W - 1 (each wrapping mod 2^32) and
// does not touch the counter, over `len` bytes. Kernels must load a group's
// input before storing its output at the same offsets, so dst == src and
// dst < src overlaps stay correct. Returns with x[12] advanced by
// ceil(len / 64).
template <size_t W, class Kernel>
inline void crypt_wide(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds,
                       Kernel kernel) {
  constexpr size_t kGroup = W * kBlockSize;
  for (; len >= kGroup; len -= kGroup, src += kGroup, dst += kGroup) {
    kernel(*state, dst, src, rounds);
    state->x[12] += static_cast<uint32_t>(W);
  }
  if (len == 0) return;
  alignas(64) uint8_t buf[kGroup];
  std::memcpy(buf, src, len);
  std::memset(buf + len, 0, kGroup - len);  // defined input for the lanes thrown away
  kernel(*state, buf, buf, rounds);
  std::memcpy(dst, buf, len);
  state->x[12] += static_cast<uint32_t>((len + kBlockSize - 1) / kBlockSize);
  zeroize(buf, sizeof buf);
}

// wide_part is how much of `len` a W-block kernel takes when the next
// narrower one has N blocks: its whole groups, and the last piece as well
// when that needs more than N blocks (one bounced call rather than several
// narrower ones).
template <size_t W, size_t N>
constexpr size_t wide_part(size_t len) {
  const size_t rest = len % (W * kBlockSize);
  return rest > N * kBlockSize ? len : len - rest;
}

// Tier is a kernel of W blocks, for crypt_tiers.
template <size_t W, class Kernel>
struct Tier {
  Kernel kernel;
};

template <size_t W, class Kernel>
constexpr Tier<W, Kernel> tier(Kernel kernel) {
  return {kernel};
}

// crypt_last runs a last piece that fits the first of `tiers` through the
// narrowest of them that covers it in one call.
template <size_t W, class Kernel, size_t... Ws, class... Kernels>
inline void crypt_last(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds,
                       Tier<W, Kernel> first, Tier<Ws, Kernels>... rest) {
  if constexpr (sizeof...(rest) == 0) {
    crypt_wide<W>(state, dst, src, len, rounds, first.kernel);
  } else {
    constexpr size_t kNext[] = {Ws...};
    static_assert(kNext[0] < W, "tiers go from wide to narrow");
    if (len > kNext[0] * kBlockSize)
      crypt_wide<W>(state, dst, src, len, rounds, first.kernel);
    else
      crypt_last(state, dst, src, len, rounds, rest...);
  }
}

// crypt_tiers is a backend's whole crypt over kernels of decreasing width,
// as the kernel's glue code walks them: whole groups through the widest,
// and what is left through the narrowest kernel that covers it in one call.
template <size_t W, class Kernel, size_t N, class Next, class... More>
inline void crypt_tiers(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds,
                        Tier<W, Kernel> first, Tier<N, Next> next, More... more) {
  const size_t n = wide_part<W, N>(len);
  crypt_wide<W>(state, dst, src, n, rounds, first.kernel);
  crypt_last(state, dst + n, src + n, len - n, rounds, next, more...);
}

// crypt_entry is what a SIMD backend registers: a call of one block or less
// runs `Short` (its one-block kernel alone) and clears the ShortBytes of
// stack that kernel's frame needs; a longer one runs `Wide`, the whole walk,
// and clears its WideBytes. Clearing the wide path's kilobytes of frames
// cost more than a short call's block itself (bench: chacha/x86-avx2 at 1
// byte went from slower than generic to faster). The residue column holds
// both sizes to what the frames really use.
template <size_t ShortBytes, auto Short, size_t WideBytes, auto Wide>
void crypt_entry(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  if (len <= kBlockSize)
    Wiping<ShortBytes, Short>::call(state, dst, src, len, rounds);
  else
    Wiping<WideBytes, Wide>::call(state, dst, src, len, rounds);
}

}  // namespace lockstep::chacha
