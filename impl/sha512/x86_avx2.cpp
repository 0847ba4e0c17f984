// sha512/x86-avx2: the message schedule of two blocks at once in AVX2 (one
// block per 128-bit lane, two 64-bit words per lane), the rounds in scalar
// code whose rotates become BMI2 RORX.
//
// The schedule is software-pipelined: under the rounds of a pair's first
// block the vector code finishes that pair's schedule, and under the second
// block's it starts the next pair's. This spreads the vector work evenly over
// all rounds. Making a whole pair's schedule under its first block (as
// sha256/x86-avx2 does) measured about 3% slower on long inputs: those
// rounds run short of issue slots while the second block's leave the vector
// units idle.
//
// Only the functions below carry target("avx2,bmi2"); the file is compiled
// with baseline flags, so nothing here runs unless dispatch has checked the
// features.
#include <immintrin.h>

#include <array>
#include <bit>
#include <utility>

#include "sha512/constants.h"
#include "zeroize.h"
#include "sha512/sha512.h"

#define LOCKSTEP_AVX2 __attribute__((target("avx2,bmi2")))
#define LOCKSTEP_AVX2_INLINE __attribute__((target("avx2,bmi2"), always_inline)) inline

namespace lockstep {
namespace {

// kK2 repeats each pair of constants for the upper lane, so one aligned
// 256-bit load serves both blocks.
alignas(32) constexpr std::array<uint64_t, 160> kK2 = [] {
  std::array<uint64_t, 160> k{};
  for (int i = 0; i < 160; ++i) k[i] = kSha512K[(i / 4) * 2 + i % 2];
  return k;
}();

using State = sha2::BlockState<sha2::Sha512Family>;

// The schedule of a pair is kept in "xfer" layout, 160 words: group g
// (words 2g and 2g+1) of the first block at xfer[4g..4g+1] and of the second
// at xfer[4g+2..4g+3], already summed with K, ready for the rounds.

// sigma0 of each word: ror 1 ^ ror 8 ^ shr 7. AVX2 has no 64-bit rotate,
// but ror 8 moves whole bytes, so a shuffle does it in one instruction.
LOCKSTEP_AVX2_INLINE __m256i small_sigma0(__m256i x) {
  const __m256i ror8 = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8));
  const __m256i right = _mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_srli_epi64(x, 7));
  const __m256i rest = _mm256_xor_si256(_mm256_slli_epi64(x, 63), _mm256_shuffle_epi8(x, ror8));
  return _mm256_xor_si256(right, rest);
}

// sigma1 of each word: ror 19 ^ ror 61 ^ shr 6. The rotates are split into
// their shifts and everything is xored flat: no OR is needed, since the two
// halves of a rotate share no bits.
LOCKSTEP_AVX2_INLINE __m256i small_sigma1(__m256i x) {
  const __m256i right = _mm256_xor_si256(
      _mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_srli_epi64(x, 61)),
      _mm256_srli_epi64(x, 6));
  const __m256i left = _mm256_xor_si256(_mm256_slli_epi64(x, 45), _mm256_slli_epi64(x, 3));
  return _mm256_xor_si256(right, left);
}

// schedule makes W[t], W[t+1] of both blocks. With two words per lane,
// sigma1 needs only W[t-2] and W[t-1], which are all of `w2`, so unlike the
// four-words-per-register layout no half of the result waits for the other.
//   w16 = W[t-16..t-15], w14 = W[t-14..t-13], w8 = W[t-8..t-7],
//   w6 = W[t-6..t-5], w2 = W[t-2..t-1].
LOCKSTEP_AVX2_INLINE __m256i schedule(__m256i w16, __m256i w14, __m256i w8, __m256i w6,
                                      __m256i w2) {
  const __m256i w15 = _mm256_alignr_epi8(w14, w16, 8);
  const __m256i w7 = _mm256_alignr_epi8(w6, w8, 8);
  // w2 comes from the previous call, so its sigma1 is added last, to keep
  // the chain between calls short.
  const __m256i w = _mm256_add_epi64(_mm256_add_epi64(w16, w7), small_sigma0(w15));
  return _mm256_add_epi64(w, small_sigma1(w2));
}

// Slot is where a group goes: its place in an xfer buffer and its constants.
// Callers advance both pointers together rather than pass a group number:
// with a group number that varies at run time, GCC precomputes every
// offset and spills them.
struct Slot {
  uint64_t* out;
  const uint64_t* k;
  Slot operator+(int groups) const { return {out + 4 * groups, k + 4 * groups}; }
};

LOCKSTEP_AVX2_INLINE Slot slot(uint64_t* xfer, int group) {
  return Slot{xfer, kK2.data()} + group;
}

LOCKSTEP_AVX2_INLINE void store_xfer(Slot s, __m256i w) {
  const __m256i k = _mm256_load_si256(reinterpret_cast<const __m256i*>(s.k));
  _mm256_store_si256(reinterpret_cast<__m256i*>(s.out), _mm256_add_epi64(w, k));
}

// step makes one group into `w16` (the oldest of the eight held) and stores
// it, with K, at `s`.
LOCKSTEP_AVX2_INLINE void step(Slot s, __m256i& w16, __m256i w14, __m256i w8, __m256i w6,
                               __m256i w2) {
  w16 = schedule(w16, w14, w8, w6, w2);
  store_xfer(s, w16);
}

// one_round does one round with the variables renamed instead of moved: the
// caller passes them rotated by one each time, and `d` and `h` come back as
// the new e and a.
//
// The rounds are bound by two chains, e to e' and a to a'. Each is kept at
// four cycles (three for a Sigma, one add) by summing everything else before
// Sigma1(e) and Sigma0(a) arrive. This costs two more instructions a round
// than the textbook order, and measured about 12% faster.
LOCKSTEP_AVX2_INLINE void one_round(uint64_t a, uint64_t b, uint64_t c, uint64_t& d, uint64_t e,
                                    uint64_t f, uint64_t g, uint64_t& h, uint64_t wk) {
  const uint64_t s1 = std::rotr(e, 14) ^ std::rotr(e, 18) ^ std::rotr(e, 41);
  const uint64_t ch = ((f ^ g) & e) ^ g;
  const uint64_t s0 = std::rotr(a, 28) ^ std::rotr(a, 34) ^ std::rotr(a, 39);
  // e' = d + T1, with d, h and wk summed before e is known.
  const uint64_t e_next = (d + h + wk + ch) + s1;
  // a' = T1 + Maj(a, b, c), and T1 is e' - d. Maj is (a & (b ^ c)) +
  // (b & c): the two have no bits in common, so + stands for ^, and only
  // the first term waits for a.
  const uint64_t t = (e_next + (b & c) - d) + (a & (b ^ c));
  d = e_next;
  h = t + s0;
}

// eight_rounds does rounds t..t+7 of one block, reading its words from `w`
// (the block's column of xfer, stride 4 words per group of two).
LOCKSTEP_AVX2_INLINE void eight_rounds(uint64_t (&v)[8], const uint64_t* w) {
  uint64_t &a = v[0], &b = v[1], &c = v[2], &d = v[3], &e = v[4], &f = v[5], &g = v[6], &h = v[7];
  one_round(a, b, c, d, e, f, g, h, w[0]);
  one_round(h, a, b, c, d, e, f, g, w[1]);
  one_round(g, h, a, b, c, d, e, f, w[4]);
  one_round(f, g, h, a, b, c, d, e, w[5]);
  one_round(e, f, g, h, a, b, c, d, w[8]);
  one_round(d, e, f, g, h, a, b, c, w[9]);
  one_round(c, d, e, f, g, h, a, b, w[12]);
  one_round(b, c, d, e, f, g, h, a, w[13]);
}

// unit makes the groups for `s` and `s + 1` (x0..x7 hold the eight groups
// before them, oldest first) and does eight rounds from `w`.
LOCKSTEP_AVX2_INLINE void unit(uint64_t (&v)[8], const uint64_t* w, Slot s,
                               __m256i& x0, __m256i& x1, __m256i x2, [[maybe_unused]] __m256i x3,
                               __m256i x4, __m256i x5, __m256i x6, __m256i x7) {
  step(s, x0, x1, x4, x5, x7);
  step(s + 1, x1, x2, x5, x6, x0);
  eight_rounds(v, w);
}

// block_rounds runs the 80 rounds of one block from `w` while making the
// sixteen groups from `s` on. The renaming comes full circle after sixteen
// groups, so x0..x7 again hold the newest eight, in order.
LOCKSTEP_AVX2_INLINE void block_rounds(uint64_t* h, const uint64_t* w, Slot s,
                                       __m256i& x0, __m256i& x1, __m256i& x2, __m256i& x3,
                                       __m256i& x4, __m256i& x5, __m256i& x6, __m256i& x7) {
  uint64_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = h[i];
  unit(v, w, s, x0, x1, x2, x3, x4, x5, x6, x7);
  unit(v, w + 16, s + 2, x2, x3, x4, x5, x6, x7, x0, x1);
  unit(v, w + 32, s + 4, x4, x5, x6, x7, x0, x1, x2, x3);
  unit(v, w + 48, s + 6, x6, x7, x0, x1, x2, x3, x4, x5);
  unit(v, w + 64, s + 8, x0, x1, x2, x3, x4, x5, x6, x7);
  unit(v, w + 80, s + 10, x2, x3, x4, x5, x6, x7, x0, x1);
  unit(v, w + 96, s + 12, x4, x5, x6, x7, x0, x1, x2, x3);
  unit(v, w + 112, s + 14, x6, x7, x0, x1, x2, x3, x4, x5);
  eight_rounds(v, w + 128);
  eight_rounds(v, w + 144);
  for (int i = 0; i < 8; ++i) h[i] += v[i];
}

// first_block runs the rounds of a call's first block, making all the rest
// of its pair's schedule (groups 8..39) under them, four groups per eight
// rounds. There is no earlier block to have started it. The loop is left
// rolled: it runs once per call, and unrolled it would double the code.
LOCKSTEP_AVX2_INLINE void first_block(uint64_t* h, const uint64_t* w, uint64_t* xfer,
                                      __m256i& x0, __m256i& x1, __m256i& x2, __m256i& x3,
                                      __m256i& x4, __m256i& x5, __m256i& x6, __m256i& x7) {
  uint64_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = h[i];
  Slot s = slot(xfer, 8);
  for (int g = 0; g < 32; g += 4, s = s + 4) {
    step(s, x0, x1, x4, x5, x7);
    step(s + 1, x1, x2, x5, x6, x0);
    step(s + 2, x2, x3, x6, x7, x1);
    step(s + 3, x3, x4, x7, x0, x2);
    eight_rounds(v, w + 4 * g);
    std::swap(x0, x4);
    std::swap(x1, x5);
    std::swap(x2, x6);
    std::swap(x3, x7);
  }
  eight_rounds(v, w + 128);
  eight_rounds(v, w + 144);
  for (int i = 0; i < 8; ++i) h[i] += v[i];
}

LOCKSTEP_AVX2_INLINE __m256i load_group(const uint8_t* first, const uint8_t* second, int group) {
  const __m256i bswap = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8));
  const __m256i w = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(first + 16 * group))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(second + 16 * group)), 1);
  return _mm256_shuffle_epi8(w, bswap);
}

// load_pair starts the schedule of the pair at `p` in `xfer`: its groups
// 0..7 from the message. With `left` < 2 the block is paired with itself,
// its copy scheduled in the upper lane and never read.
LOCKSTEP_AVX2_INLINE void load_pair(const uint8_t* p, size_t left, uint64_t* xfer, __m256i& x0,
                                    __m256i& x1, __m256i& x2, __m256i& x3, __m256i& x4,
                                    __m256i& x5, __m256i& x6, __m256i& x7) {
  const uint8_t* second = left >= 2 ? p + 128 : p;
  x0 = load_group(p, second, 0);
  x1 = load_group(p, second, 1);
  x2 = load_group(p, second, 2);
  x3 = load_group(p, second, 3);
  x4 = load_group(p, second, 4);
  x5 = load_group(p, second, 5);
  x6 = load_group(p, second, 6);
  x7 = load_group(p, second, 7);
  const Slot s = slot(xfer, 0);
  store_xfer(s, x0);
  store_xfer(s + 1, x1);
  store_xfer(s + 2, x2);
  store_xfer(s + 3, x3);
  store_xfer(s + 4, x4);
  store_xfer(s + 5, x5);
  store_xfer(s + 6, x6);
  store_xfer(s + 7, x7);
}

[[gnu::noinline]] LOCKSTEP_AVX2 void blocks_avx2(State* state, const uint8_t* data, size_t nblocks) {
  // Two xfer buffers: the rounds of a pair's second block read one while the
  // next pair's schedule is written to the other.
  alignas(32) uint64_t xfer[2][160];
  // The rounds read xfer through a pointer GCC cannot trace. Otherwise it
  // forwards the stores and pulls each word out of a live vector (VMOVQ,
  // VPEXTRQ), which costs more uops than a load and spills the schedule.
  const uint64_t* words = &xfer[0][0];
  asm("" : "+r"(words));
  uint64_t* h = state->h;

  // x0..x7 carry the newest eight groups of the schedule being made.
  __m256i x0, x1, x2, x3, x4, x5, x6, x7;
  load_pair(data, nblocks, xfer[0], x0, x1, x2, x3, x4, x5, x6, x7);
  first_block(h, words, xfer[0], x0, x1, x2, x3, x4, x5, x6, x7);

  // One block per iteration, so that the rounds are inlined only once.
  int buf = 0;     // the buffer the rounds read
  int column = 1;  // 0: the pair's first block; 1: its second
  while (--nblocks) {
    // Under a first block, finish its pair's schedule (groups 24..39); it
    // stays ahead of the rounds, as group 24 + 2u is made in the u-th eight
    // rounds and first read in the (6 + u/2)-th. Under a second block,
    // start the next pair's (groups 8..23) in the other buffer. With no
    // next pair that schedules on from stale groups into the idle buffer:
    // cheaper than a second copy of the rounds, since the vector units would
    // otherwise idle.
    if (column == 1) {
      if (nblocks >= 2)
        load_pair(data + 256, nblocks - 1, xfer[buf ^ 1], x0, x1, x2, x3, x4, x5, x6, x7);
    } else {
      buf ^= 1;
      data += 256;
    }
    const int sched = column ? buf ^ 1 : buf;
    block_rounds(h, words + 160 * buf + 2 * column, slot(xfer[sched], column ? 8 : 24), x0, x1,
                 x2, x3, x4, x5, x6, x7);
    column ^= 1;
  }
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512X86Avx2 = {
    {"sha512/x86-avx2",
     {cpu::Feature::kAvx2, cpu::Feature::kBmi2},
     "AVX2 message schedule for two blocks at a time, pipelined under scalar rounds with BMI2 "
     "RORX"},
    Wiping<3584, blocks_avx2>::call,
};

}  // namespace lockstep
