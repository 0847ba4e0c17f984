// The row-layout kernels for short pieces, written once for every backend:
// rounds.h's row_rounds with the state loaded into rows before and the
// input rows added back and xored into the message after. A vector type V
// carries one block per 128-bit lane; G row sets of V go side by side, as
// one block alone waits on the latency of its dependency chain most of the
// time and the independent chains of other blocks fill those waits.
//
// Besides the instructions rounds.h asks for, `Ops` gives, for a V that
// holds more than one block:
//
//   V count(V d, int n)              d with n + q added to word 0 of lane q
//
// and for a V of two or four 128-bit lanes:
//
//   V broadcast(const uint32_t* w)   the four words at w in every lane
//   V lanes<I, J>(V a, V b)          two lanes: a's lane I, then b's lane J
//   V lanes<I0, I1, J0, J1>(V a, V b)
//                                    four lanes: a's I0 and I1, then b's J0
//                                    and J1
//
// (A memcpy or a constant array would do for broadcast and count, but GCC
// 12 then builds the vectors on the stack.)
//
// Vectors go to and from memory by memcpy, which compilers turn into the
// unaligned vector load or store (little-endian, as RFC 8439 serialises
// the words).
//
// The including file defines LOCKSTEP_CHACHA_KERNEL to its target attribute
// (empty if it has none), so that a kernel is a function of that target,
// called through walk.h's tiers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "chacha/chacha.h"
#include "chacha/rounds.h"

#ifndef LOCKSTEP_CHACHA_KERNEL
#error "define LOCKSTEP_CHACHA_KERNEL to this file's target attribute (empty if none)"
#endif

namespace lockstep::chacha {
namespace {

// xor_store writes src ^ ks at `offset`, loading before storing. Callers go
// in ascending order: with dst <= src a store then only overwrites input
// that has been read already.
template <class Ops, class V>
LOCKSTEP_CHACHA_INLINE void xor_store(uint8_t* dst, const uint8_t* src, size_t offset, V ks) {
  V in;
  std::memcpy(&in, src + offset, sizeof in);
  const V out = Ops::eor(in, ks);
  std::memcpy(dst + offset, &out, sizeof out);
}

// row is state row i in every 128-bit lane of V.
template <class Ops, class V>
LOCKSTEP_CHACHA_INLINE V row(const State& state, int i) {
  if constexpr (sizeof(V) == 16) {
    V r;
    std::memcpy(&r, state.x + 4 * i, sizeof r);
    return r;
  } else {
    return Ops::broadcast(state.x + 4 * i);
  }
}

// xor_lanes xors the blocks of rows a, b, c and d, lane q's at 64 q, in
// ascending order.
template <class Ops, class V>
LOCKSTEP_CHACHA_INLINE void xor_lanes(uint8_t* dst, const uint8_t* src, V a, V b, V c, V d) {
  if constexpr (sizeof(V) == 32) {
    xor_store<Ops>(dst, src, 0, Ops::template lanes<0, 0>(a, b));
    xor_store<Ops>(dst, src, 32, Ops::template lanes<0, 0>(c, d));
    xor_store<Ops>(dst, src, 64, Ops::template lanes<1, 1>(a, b));
    xor_store<Ops>(dst, src, 96, Ops::template lanes<1, 1>(c, d));
  } else {
    static_assert(sizeof(V) == 64);
    // Lanes 0 and 1, then 2 and 3, of a with b and of c with d; then one
    // block's four rows out of each pair.
    const V ab01 = Ops::template lanes<0, 1, 0, 1>(a, b);
    const V cd01 = Ops::template lanes<0, 1, 0, 1>(c, d);
    const V ab23 = Ops::template lanes<2, 3, 2, 3>(a, b);
    const V cd23 = Ops::template lanes<2, 3, 2, 3>(c, d);
    xor_store<Ops>(dst, src, 0, Ops::template lanes<0, 2, 0, 2>(ab01, cd01));
    xor_store<Ops>(dst, src, 64, Ops::template lanes<1, 3, 1, 3>(ab01, cd01));
    xor_store<Ops>(dst, src, 128, Ops::template lanes<0, 2, 0, 2>(ab23, cd23));
    xor_store<Ops>(dst, src, 192, Ops::template lanes<1, 3, 1, 3>(ab23, cd23));
  }
}

// row_blocks xors G * (sizeof(V) / 16) blocks of keystream, counters
// state.x[12] onwards, block L g + q in lane q of row set g.
template <class Ops, class V, size_t G>
LOCKSTEP_CHACHA_KERNEL void row_blocks(const State& state, uint8_t* dst, const uint8_t* src,
                                       int rounds) {
  constexpr size_t L = sizeof(V) / 16;
  const V a0 = row<Ops, V>(state, 0), b0 = row<Ops, V>(state, 1),
          c0 = row<Ops, V>(state, 2);
  V d0[G], a[G], b[G], c[G], d[G];
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) {
    d0[g] = row<Ops, V>(state, 3);
    // A 32-bit add wraps each block's counter on its own, as it must (no
    // carry into word 13).
    if constexpr (L * G > 1) d0[g] = Ops::count(d0[g], static_cast<int>(L * g));
    a[g] = a0, b[g] = b0, c[g] = c0, d[g] = d0[g];
  }
  row_rounds<Ops, G>(a, b, c, d, rounds);
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) {
    const V ra = Ops::add(a[g], a0), rb = Ops::add(b[g], b0), rc = Ops::add(c[g], c0),
            rd = Ops::add(d[g], d0[g]);
    const size_t base = 64 * L * g;
    if constexpr (L == 1) {
      xor_store<Ops>(dst, src, base, ra);
      xor_store<Ops>(dst, src, base + 16, rb);
      xor_store<Ops>(dst, src, base + 32, rc);
      xor_store<Ops>(dst, src, base + 48, rd);
    } else {
      xor_lanes<Ops>(dst + base, src + base, ra, rb, rc, rd);
    }
  }
}

}  // namespace
}  // namespace lockstep::chacha
