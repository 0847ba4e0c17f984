// The ChaCha rounds (RFC 8439, 2.1 to 2.3), written once for every backend
// and for the portable reference. Two layouts:
//
// - words: one state word per register, a block per lane; the column round
//   then the diagonal round are plain quarter-rounds on registers.
// - rows: a block's four rows of four words in four registers (a 128-bit
//   lane each), the diagonals lined up as columns by turning rows.
//
// Only the instructions differ between targets, so the including file
// passes them as a type `Ops` of static functions, for each vector type V
// it uses:
//
//   V add(V, V), eor(V, V)     32-bit lane add and xor
//   V rot16(V) ... rot7(V)     32-bit lane rotates left by 16, 12, 8, 7
//   V words1(V) ... words3(V)  turns the four words of every 128-bit lane
//                              left by 1, 2, 3: word i takes word i + n mod 4
//                              (row layout only)
//
// GCC and clang refuse to inline an always_inline function that has a
// target attribute into one without it, so these templates must carry the
// target of the kernels they go into: the including file defines
// LOCKSTEP_CHACHA_INLINE to its own always-inline attributes first. One
// target per translation unit, hence everything here is in an unnamed
// namespace: each file's copy is its own.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#ifndef LOCKSTEP_CHACHA_INLINE
#error "define LOCKSTEP_CHACHA_INLINE to this file's always_inline (and target) attributes"
#endif

namespace lockstep::chacha {
namespace {

// ScalarOps is a single 32-bit word: the portable reference's vector type.
struct ScalarOps {
  static LOCKSTEP_CHACHA_INLINE uint32_t add(uint32_t a, uint32_t b) { return a + b; }
  static LOCKSTEP_CHACHA_INLINE uint32_t eor(uint32_t a, uint32_t b) { return a ^ b; }
  static LOCKSTEP_CHACHA_INLINE uint32_t rot16(uint32_t x) { return std::rotl(x, 16); }
  static LOCKSTEP_CHACHA_INLINE uint32_t rot12(uint32_t x) { return std::rotl(x, 12); }
  static LOCKSTEP_CHACHA_INLINE uint32_t rot8(uint32_t x) { return std::rotl(x, 8); }
  static LOCKSTEP_CHACHA_INLINE uint32_t rot7(uint32_t x) { return std::rotl(x, 7); }
};

template <class Ops, int N, class V>
LOCKSTEP_CHACHA_INLINE V rotl(V x) {
  static_assert(N == 16 || N == 12 || N == 8 || N == 7, "ChaCha rotates by 16, 12, 8 and 7");
  if constexpr (N == 16)
    return Ops::rot16(x);
  else if constexpr (N == 12)
    return Ops::rot12(x);
  else if constexpr (N == 8)
    return Ops::rot8(x);
  else
    return Ops::rot7(x);
}

// One half of a quarter-round: a += b, d ^= a, d <<<= N. `a` may be a
// volatile V (word_rounds_spilled): read once, written once.
template <class Ops, int N, class A, class V>
LOCKSTEP_CHACHA_INLINE void arx(A& a, V b, V& d) {
  const V sum = Ops::add(a, b);
  a = sum;
  d = rotl<Ops, N>(Ops::eor(d, sum));
}

template <class Ops, class A, class V>
LOCKSTEP_CHACHA_INLINE void quarter(A& a, V& b, V& c, V& d) {
  arx<Ops, 16>(a, b, d);
  arx<Ops, 12>(c, d, b);
  arx<Ops, 8>(a, b, d);
  arx<Ops, 7>(c, d, b);
}

// G quarter-rounds side by side, step by step, so that each step has G
// independent operations to overlap.
template <class Ops, size_t G, class A, class V>
LOCKSTEP_CHACHA_INLINE void quarters(A* const (&a)[G], V* const (&b)[G], V* const (&c)[G],
                                     V* const (&d)[G]) {
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) arx<Ops, 16>(*a[g], *b[g], *d[g]);
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) arx<Ops, 12>(*c[g], *d[g], *b[g]);
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) arx<Ops, 8>(*a[g], *b[g], *d[g]);
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) arx<Ops, 7>(*c[g], *d[g], *b[g]);
}

// The words layout: w[i] is state word i for i < 4, x[i] for the others
// (x[0..3] unused when w is elsewhere). G of a round's four quarter-rounds
// go side by side: all four, or one after another.
template <class Ops, size_t G, class A, class V>
LOCKSTEP_CHACHA_INLINE void columns(A* w, V* x) {
  static_assert(G == 4 || G == 1);
  if constexpr (G == 4) {
    quarters<Ops, 4, A, V>({&w[0], &w[1], &w[2], &w[3]}, {&x[4], &x[5], &x[6], &x[7]},
                           {&x[8], &x[9], &x[10], &x[11]}, {&x[12], &x[13], &x[14], &x[15]});
  } else {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) quarter<Ops>(w[i], x[4 + i], x[8 + i], x[12 + i]);
  }
}

template <class Ops, size_t G, class A, class V>
LOCKSTEP_CHACHA_INLINE void diagonals(A* w, V* x) {
  static_assert(G == 4 || G == 1);
  if constexpr (G == 4) {
    quarters<Ops, 4, A, V>({&w[0], &w[1], &w[2], &w[3]}, {&x[5], &x[6], &x[7], &x[4]},
                           {&x[10], &x[11], &x[8], &x[9]}, {&x[15], &x[12], &x[13], &x[14]});
  } else {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i)
      quarter<Ops>(w[i], x[4 + (i + 1) % 4], x[8 + (i + 2) % 4], x[12 + (i + 3) % 4]);
  }
}

// word_rounds applies `rounds` (even) rounds to the 16 words at x.
template <class Ops, size_t G, class V>
LOCKSTEP_CHACHA_INLINE void word_rounds(V* x, int rounds) {
  for (int i = 0; i < rounds; i += 2) {
    columns<Ops, G>(x, x);
    diagonals<Ops, G>(x, x);
  }
}

// word_rounds_spilled is word_rounds with the four quarter-rounds side by
// side and words 0 to 3 held in memory, as the kernel's chacha-ssse3 code
// holds them. With two-operand SSE, 16 words, a scratch register and the
// rotate masks need more than 16 registers; left to choose, GCC 12 spills
// and reloads the others around every step, and run one after another the
// quarter-rounds leave the CPU one dependency chain at a time. Words 0 to 3
// are the cheapest to keep out: each is read and written once per step,
// and the value written goes on in a register (arx). volatile is what
// keeps GCC from taking them back into registers.
template <class Ops, class V>
LOCKSTEP_CHACHA_INLINE void word_rounds_spilled(V* x, int rounds) {
  volatile V w[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) w[i] = x[i];
  for (int i = 0; i < rounds; i += 2) {
    columns<Ops, 4>(w, x);
    diagonals<Ops, 4>(w, x);
  }
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) x[i] = w[i];
}

// row_rounds applies `rounds` (even) rounds to G independent row sets.
// Turning row a right by one word, c left by one and d left by two lines
// the diagonals up as columns (x3 x4 x9 x14 in the first, x0 x5 x10 x15 in
// the second, ...); the second turn puts them back. Row b stays put because
// it is the last to be finished and the first to be needed: the turns of
// the other three overlap the quarter-round's tail instead of lengthening
// the chain. The turns stay inside 128-bit lanes, so a wider register
// carries the rows of a block per lane.
template <class Ops, size_t G, class V>
LOCKSTEP_CHACHA_INLINE void row_rounds(V (&a)[G], V (&b)[G], V (&c)[G], V (&d)[G], int rounds) {
  V* pa[G];
  V* pb[G];
  V* pc[G];
  V* pd[G];
#pragma GCC unroll 4
  for (size_t g = 0; g < G; ++g) pa[g] = &a[g], pb[g] = &b[g], pc[g] = &c[g], pd[g] = &d[g];
  for (int i = 0; i < rounds; i += 2) {
    quarters<Ops, G, V>(pa, pb, pc, pd);
#pragma GCC unroll 4
    for (size_t g = 0; g < G; ++g)
      a[g] = Ops::words3(a[g]), c[g] = Ops::words1(c[g]), d[g] = Ops::words2(d[g]);
    quarters<Ops, G, V>(pa, pb, pc, pd);
#pragma GCC unroll 4
    for (size_t g = 0; g < G; ++g)
      a[g] = Ops::words1(a[g]), c[g] = Ops::words3(c[g]), d[g] = Ops::words2(d[g]);
  }
}

}  // namespace
}  // namespace lockstep::chacha
