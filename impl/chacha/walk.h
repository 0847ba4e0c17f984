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

}  // namespace lockstep::chacha
