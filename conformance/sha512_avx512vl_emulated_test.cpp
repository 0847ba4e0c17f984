// sha512/x86-avx512vl's code on a CPU without AVX-512: the same source
// (impl/sha512/x86_avx512vl_sigma.inc and x86_schedule2x.inc) compiled with
// SIMDe's portable versions of the intrinsics, so that the algorithm is
// checked on every machine. The real backend, under its target attribute,
// runs in every column where the CPU has AVX-512VL; this is what keeps it
// honest where none does (QEMU has no AVX-512 and SDE may be absent).
//
// Expected values: the FIPS 180-2 examples (one block and two), and
// sha512/generic, an independent implementation, on random blocks and
// chaining values.
#include <simde/x86/avx512.h>

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "sha512/constants.h"
#include "sha512/sha512.h"
#include "zeroize.h"

#define LOCKSTEP_SCHEDULE_TARGET
#define LOCKSTEP_SCHEDULE_INLINE inline

// The intrinsics the two files use, as SIMDe's. Not SIMDe's own
// SIMDE_ENABLE_NATIVE_ALIASES: those also alias the bf16 types, which
// clang 19's headers define already. A new intrinsic in the files is a
// compile error here until it is added.
#define __m128i simde__m128i
#define __m256i simde__m256i
#define _mm_loadu_si128 simde_mm_loadu_si128
#define _mm_setr_epi8 simde_mm_setr_epi8
#define _mm256_add_epi64 simde_mm256_add_epi64
#define _mm256_alignr_epi8 simde_mm256_alignr_epi8
#define _mm256_broadcastsi128_si256 simde_mm256_broadcastsi128_si256
#define _mm256_castsi128_si256 simde_mm256_castsi128_si256
#define _mm256_inserti128_si256 simde_mm256_inserti128_si256
#define _mm256_load_si256 simde_mm256_load_si256
#define _mm256_ror_epi64 simde_mm256_ror_epi64
#define _mm256_shuffle_epi8 simde_mm256_shuffle_epi8
#define _mm256_srli_epi64 simde_mm256_srli_epi64
#define _mm256_store_si256 simde_mm256_store_si256
#define _mm256_ternarylogic_epi64 simde_mm256_ternarylogic_epi64
// Emulated vectors live in memory, not in registers to clear.
#define _mm256_zeroall() ((void)0)

namespace lockstep {
namespace {
namespace emulated {

#include "sha512/x86_avx512vl_sigma.inc"
#include "sha512/x86_schedule2x.inc"

}  // namespace emulated

constexpr lockstep_sha512_state kInitial = {{
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
}};

// The message padded to whole blocks, as FIPS 180-4 5.1.2 does.
std::vector<uint8_t> padded(std::string_view msg) {
  std::vector<uint8_t> out(msg.begin(), msg.end());
  out.push_back(0x80);
  while (out.size() % 128 != 112) out.push_back(0);
  const uint64_t bits = uint64_t{msg.size()} * 8;
  for (int i = 0; i < 8; ++i) out.push_back(0);
  for (int i = 7; i >= 0; --i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  return out;
}

lockstep_sha512_state digest(std::string_view msg) {
  const std::vector<uint8_t> p = padded(msg);
  lockstep_sha512_state s = kInitial;
  emulated::wiped_blocks(&s, p.data(), p.size() / 128);
  return s;
}

TEST(Sha512Avx512vlEmulated, FipsOneBlock) {
  const lockstep_sha512_state s = digest("abc");
  const std::array<uint64_t, 8> want = {0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2,
                                        0x0a9eeee64b55d39a, 0x2192992a274fc1a8, 0x36ba3c23a3feebbd,
                                        0x454d4423643ce80e, 0x2a9ac94fa54ca49f};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(s.h[i], want[i]) << "word " << i;
}

TEST(Sha512Avx512vlEmulated, FipsTwoBlocks) {
  const lockstep_sha512_state s = digest(
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
      "mnopqrstnopqrstu");
  const std::array<uint64_t, 8> want = {0x8e959b75dae313da, 0x8cf4f72814fc143f, 0x8f7779c6eb9f7fa1,
                                        0x7299aeadb6889018, 0x501d289e4900f7e4, 0x331b99dec4b5433a,
                                        0xc7d329eeb6dd2654, 0x5e96e55b874be909};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(s.h[i], want[i]) << "word " << i;
}

// Every count of blocks from 1 to 9 (odd and even, so a pair's second
// block and the lone last one), from random chaining values.
TEST(Sha512Avx512vlEmulated, AgreesWithGenericOnRandomBlocks) {
  std::mt19937_64 rng(512);
  for (size_t nblocks = 1; nblocks <= 9; ++nblocks) {
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<uint8_t> data(128 * nblocks);
      for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
      lockstep_sha512_state ours{}, theirs{};
      for (uint64_t& w : ours.h) w = rng();
      theirs = ours;
      emulated::wiped_blocks(&ours, data.data(), nblocks);
      kSha512Generic.blocks(&theirs, data.data(), nblocks);
      ASSERT_EQ(0, std::memcmp(ours.h, theirs.h, sizeof ours.h)) << nblocks << " blocks, trial " << trial;
    }
  }
}

}  // namespace
}  // namespace lockstep
