// The SHA512-extension trap emulator against a model of its own: the
// instructions are issued as bytes on register files loaded from memory, and
// the results compared with a transcription of the SDM's Operation sections
// that shares no code with the emulator. The model is itself held to FIPS
// 180-4 by building SHA-512 from it alone; sha512/x86-sha512ext, run through
// the emulator, is held to the published digests and to sha512/generic.
// ctest runs this binary with LOCKSTEP_EMULATE=sha512ext (the first run at
// each site traps, later ones take the site's patched stub), once more with
// LOCKSTEP_TRAP_PATCH=0 as well (every run traps); the switch itself is the
// trap host's (emulation/trap/trap_host_test.cpp).
#include <gtest/gtest.h>
#include <cpuid.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "catalog.h"
#include "cpu/cpu.h"
#include "sha512/sha512.h"
#include "sha512ext/sha512ext_emulator.h"
#include "sha512ext/site_patch.h"
#include "trap/test_support.h"
#include "trap/trap.h"

namespace {

using Bytes = std::vector<uint8_t>;
using lockstep::cpu::Feature;

// ---------------------------------------------------------------------------
// The model: Intel SDM vol. 2, VSHA512RNDS2 / VSHA512MSG1 / VSHA512MSG2,
// "Operation", line by line. qword[i] is bits 64i+63:64i.

struct Y {
  uint64_t qword[4];
  bool operator==(const Y&) const = default;
};

uint64_t ROR64(uint64_t x, unsigned n) { return n % 64 == 0 ? x : (x >> n % 64) | (x << (64 - n % 64)); }
uint64_t SHR64(uint64_t x, unsigned n) { return x >> n; }
uint64_t s0(uint64_t w) { return ROR64(w, 1) ^ ROR64(w, 8) ^ SHR64(w, 7); }
uint64_t s1(uint64_t w) { return ROR64(w, 19) ^ ROR64(w, 61) ^ SHR64(w, 6); }
uint64_t S0(uint64_t a) { return ROR64(a, 28) ^ ROR64(a, 34) ^ ROR64(a, 39); }
uint64_t S1(uint64_t e) { return ROR64(e, 14) ^ ROR64(e, 18) ^ ROR64(e, 41); }
uint64_t Ch(uint64_t e, uint64_t f, uint64_t g) { return (e & f) ^ (~e & g); }
uint64_t Maj(uint64_t a, uint64_t b, uint64_t c) { return (a & b) ^ (a & c) ^ (b & c); }

// VSHA512RNDS2 SRCDEST, SRC1, SRC2
Y model_rnds2(Y SRCDEST, const Y& SRC1, const Y& SRC2) {
  uint64_t A[3], B[3], C[3], D[3], E[3], F[3], G[3], H[3], WK[2];
  A[0] = SRC1.qword[3];
  B[0] = SRC1.qword[2];
  C[0] = SRCDEST.qword[3];
  D[0] = SRCDEST.qword[2];
  E[0] = SRC1.qword[1];
  F[0] = SRC1.qword[0];
  G[0] = SRCDEST.qword[1];
  H[0] = SRCDEST.qword[0];
  WK[0] = SRC2.qword[0];
  WK[1] = SRC2.qword[1];
  for (int i = 0; i <= 1; ++i) {
    A[i + 1] = Ch(E[i], F[i], G[i]) + S1(E[i]) + WK[i] + H[i] + Maj(A[i], B[i], C[i]) + S0(A[i]);
    B[i + 1] = A[i];
    C[i + 1] = B[i];
    D[i + 1] = C[i];
    E[i + 1] = Ch(E[i], F[i], G[i]) + S1(E[i]) + WK[i] + H[i] + D[i];
    F[i + 1] = E[i];
    G[i + 1] = F[i];
    H[i + 1] = G[i];
  }
  SRCDEST.qword[3] = A[2];
  SRCDEST.qword[2] = B[2];
  SRCDEST.qword[1] = E[2];
  SRCDEST.qword[0] = F[2];
  return SRCDEST;
}

// VSHA512MSG1 SRCDEST, SRC1
Y model_msg1(Y SRCDEST, const Y& SRC1) {
  uint64_t W[5];
  W[4] = SRC1.qword[0];
  W[3] = SRCDEST.qword[3];
  W[2] = SRCDEST.qword[2];
  W[1] = SRCDEST.qword[1];
  W[0] = SRCDEST.qword[0];
  SRCDEST.qword[3] = W[3] + s0(W[4]);
  SRCDEST.qword[2] = W[2] + s0(W[3]);
  SRCDEST.qword[1] = W[1] + s0(W[2]);
  SRCDEST.qword[0] = W[0] + s0(W[1]);
  return SRCDEST;
}

// VSHA512MSG2 SRCDEST, SRC1
Y model_msg2(Y SRCDEST, const Y& SRC1) {
  uint64_t W[20];
  W[14] = SRC1.qword[2];
  W[15] = SRC1.qword[3];
  W[16] = SRCDEST.qword[0] + s1(W[14]);
  W[17] = SRCDEST.qword[1] + s1(W[15]);
  W[18] = SRCDEST.qword[2] + s1(W[16]);
  W[19] = SRCDEST.qword[3] + s1(W[17]);
  SRCDEST.qword[3] = W[19];
  SRCDEST.qword[2] = W[18];
  SRCDEST.qword[1] = W[17];
  SRCDEST.qword[0] = W[16];
  return SRCDEST;
}

// ---------------------------------------------------------------------------
// Issuing one instruction. Each issue function loads all sixteen YMM
// registers from `in`, runs the instruction's bytes, and stores all sixteen
// to `out`, reading RFLAGS just before and just after (below the red zone)
// and passing RAX, RCX and RDX through.

struct alignas(64) YmmFile {
  Y r[16];
};
struct alignas(64) ZmmFile {
  uint64_t r[16][8];
};

struct Probe {
  uint64_t rax = 0x0123456789abcdefu, rcx = 0xfedcba9876543210u, rdx = 0x5555aaaa5555aaaau;
  uint64_t flags_before = 0, flags_after = 0;
};

#define LS_EACH_REG(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define LS_LOAD_YMM(n) "vmovdqu " #n "*32(%[in]), %%ymm" #n "\n\t"
#define LS_STORE_YMM(n) "vmovdqu %%ymm" #n ", " #n "*32(%[out])\n\t"
#define LS_LOAD_ZMM(n) "vmovdqu64 " #n "*64(%[in]), %%zmm" #n "\n\t"
#define LS_STORE_ZMM(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%[out])\n\t"
#define LS_RUN(bytes)                            \
  "sub $128, %%rsp\n\tpushfq\n\tpopq %[f0]\n\t" \
  ".byte " bytes "\n\t"                          \
  "pushfq\n\tpopq %[f1]\n\tadd $128, %%rsp\n\t"
#define LS_OPERANDS                                                                    \
  : [f0] "=&r"(p.flags_before), [f1] "=&r"(p.flags_after), "+a"(p.rax), "+c"(p.rcx), \
    "+d"(p.rdx)                                                                        \
  : [in] "r"(&in), [out] "r"(&out)                                                     \
  : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
    "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

// The whole YMM registers.
#define LS_DEFINE_ISSUE(name, bytes)                                                 \
  void name(const YmmFile& in, YmmFile& out, Probe& p) {                             \
    __asm__ __volatile__(LS_EACH_REG(LS_LOAD_YMM) LS_RUN(bytes)                      \
                             LS_EACH_REG(LS_STORE_YMM) "vzeroupper\n\t" LS_OPERANDS); \
  }
// The low halves only, with the upper halves in their initial state:
// VZEROUPPER keeps bits 127:0 and leaves the YMM_Hi128 component unused.
#define LS_DEFINE_ISSUE_CLEAN(name, bytes)                                                \
  void name(const YmmFile& in, YmmFile& out, Probe& p) {                                  \
    __asm__ __volatile__(LS_EACH_REG(LS_LOAD_YMM) "vzeroupper\n\t" LS_RUN(bytes)          \
                             LS_EACH_REG(LS_STORE_YMM) "vzeroupper\n\t" LS_OPERANDS);      \
  }
// The whole ZMM registers (AVX-512 machines).
#define LS_DEFINE_ISSUE_ZMM(name, bytes)                                             \
  void name(const ZmmFile& in, ZmmFile& out, Probe& p) {                             \
    __asm__ __volatile__(LS_EACH_REG(LS_LOAD_ZMM) LS_RUN(bytes)                      \
                             LS_EACH_REG(LS_STORE_ZMM) "vzeroupper\n\t" LS_OPERANDS); \
  }

enum class Op { kRnds2, kMsg1, kMsg2 };

// One encoding, as llvm-mc-19 --show-encoding spells it.
struct Encoding {
  const char* text;
  Op op;
  int dst, src1, src2;
  void (*issue)(const YmmFile&, YmmFile&, Probe&);
  void (*issue_clean)(const YmmFile&, YmmFile&, Probe&);
  void (*issue_zmm)(const ZmmFile&, ZmmFile&, Probe&);
};

#define LS_ENCODING(id, text, op, dst, src1, src2, bytes) \
  LS_DEFINE_ISSUE(issue_##id, bytes)                      \
  LS_DEFINE_ISSUE_CLEAN(issue_clean_##id, bytes)          \
  LS_DEFINE_ISSUE_ZMM(issue_zmm_##id, bytes)              \
  const Encoding k##id = {text, op, dst, src1, src2, issue_##id, issue_clean_##id, issue_zmm_##id};

// R, B and all four vvvv bits both ways, and every operand aliased.
LS_ENCODING(Rnds2_0_1_2, "vsha512rnds2 ymm0, ymm1, xmm2", Op::kRnds2, 0, 1, 2,
            "0xc4, 0xe2, 0x77, 0xcb, 0xc2")
LS_ENCODING(Rnds2_9_12_15, "vsha512rnds2 ymm9, ymm12, xmm15", Op::kRnds2, 9, 12, 15,
            "0xc4, 0x42, 0x1f, 0xcb, 0xcf")
LS_ENCODING(Rnds2_3_3_3, "vsha512rnds2 ymm3, ymm3, xmm3", Op::kRnds2, 3, 3, 3,
            "0xc4, 0xe2, 0x67, 0xcb, 0xdb")
LS_ENCODING(Rnds2_14_5_4, "vsha512rnds2 ymm14, ymm5, xmm4", Op::kRnds2, 14, 5, 4,
            "0xc4, 0x62, 0x57, 0xcb, 0xf4")
LS_ENCODING(Rnds2_7_0_8, "vsha512rnds2 ymm7, ymm0, xmm8", Op::kRnds2, 7, 0, 8,
            "0xc4, 0xc2, 0x7f, 0xcb, 0xf8")
LS_ENCODING(Msg1_0_1, "vsha512msg1 ymm0, xmm1", Op::kMsg1, 0, 1, -1, "0xc4, 0xe2, 0x7f, 0xcc, 0xc1")
LS_ENCODING(Msg1_6_15, "vsha512msg1 ymm6, xmm15", Op::kMsg1, 6, 15, -1,
            "0xc4, 0xc2, 0x7f, 0xcc, 0xf7")
LS_ENCODING(Msg1_11_11, "vsha512msg1 ymm11, xmm11", Op::kMsg1, 11, 11, -1,
            "0xc4, 0x42, 0x7f, 0xcc, 0xdb")
LS_ENCODING(Msg1_13_2, "vsha512msg1 ymm13, xmm2", Op::kMsg1, 13, 2, -1,
            "0xc4, 0x62, 0x7f, 0xcc, 0xea")
LS_ENCODING(Msg2_0_1, "vsha512msg2 ymm0, ymm1", Op::kMsg2, 0, 1, -1, "0xc4, 0xe2, 0x7f, 0xcd, 0xc1")
LS_ENCODING(Msg2_15_5, "vsha512msg2 ymm15, ymm5", Op::kMsg2, 15, 5, -1,
            "0xc4, 0x62, 0x7f, 0xcd, 0xfd")
LS_ENCODING(Msg2_7_7, "vsha512msg2 ymm7, ymm7", Op::kMsg2, 7, 7, -1, "0xc4, 0xe2, 0x7f, 0xcd, 0xff")
LS_ENCODING(Msg2_4_10, "vsha512msg2 ymm4, ymm10", Op::kMsg2, 4, 10, -1,
            "0xc4, 0xc2, 0x7f, 0xcd, 0xe2")

const Encoding* const kEncodings[] = {
    &kRnds2_0_1_2, &kRnds2_9_12_15, &kRnds2_3_3_3, &kRnds2_14_5_4, &kRnds2_7_0_8,
    &kMsg1_0_1,    &kMsg1_6_15,     &kMsg1_11_11,  &kMsg1_13_2,    &kMsg2_0_1,
    &kMsg2_15_5,   &kMsg2_7_7,      &kMsg2_4_10,
};

// expected: the register file after the instruction, per the model.
YmmFile expected(const Encoding& e, const YmmFile& in) {
  YmmFile out = in;
  const Y& d = in.r[e.dst];
  switch (e.op) {
    case Op::kRnds2: out.r[e.dst] = model_rnds2(d, in.r[e.src1], in.r[e.src2]); break;
    case Op::kMsg1: out.r[e.dst] = model_msg1(d, in.r[e.src1]); break;
    case Op::kMsg2: out.r[e.dst] = model_msg2(d, in.r[e.src1]); break;
  }
  return out;
}

YmmFile random_file(std::mt19937_64& rng) {
  YmmFile f;
  for (Y& y : f.r)
    for (uint64_t& q : y.qword) q = rng();
  return f;
}

std::string show(const Y& y) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "%016llx %016llx %016llx %016llx",
                static_cast<unsigned long long>(y.qword[3]), static_cast<unsigned long long>(y.qword[2]),
                static_cast<unsigned long long>(y.qword[1]), static_cast<unsigned long long>(y.qword[0]));
  return buf;
}

using lockstep::trap::testing::native;
using lockstep::trap::testing::no_core;

bool patching() {
  const char* sw = std::getenv("LOCKSTEP_TRAP_PATCH");
  return sw == nullptr || std::string(sw) != "0";
}

class Sha512extEmulatorTest : public testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(lockstep::trap::install(lockstep::sha512ext::kTrapEmulator)); }
};

// Every encoding on random register files: the destination per the model,
// every other register (all 256 bits), RFLAGS, RAX, RCX and RDX unchanged.
TEST_F(Sha512extEmulatorTest, InstructionsMatchTheModel) {
  std::mt19937_64 rng(0x5ba1a5e);
  const uint64_t stubs_before = lockstep::sha512ext::stub_instructions();
  for (const Encoding* e : kEncodings) {
    for (int round = 0; round < 200; ++round) {
      const YmmFile in = random_file(rng);
      YmmFile out;
      Probe p;
      const Probe before = p;
      const uint64_t emulated = lockstep::sha512ext::emulated_instructions();
      e->issue(in, out, p);
      if (!native(Feature::kSha512)) {
        ASSERT_EQ(lockstep::sha512ext::emulated_instructions(), emulated + 1) << e->text;
      }
      const YmmFile want = expected(*e, in);
      for (int r = 0; r < 16; ++r) {
        ASSERT_EQ(out.r[r], want.r[r]) << e->text << ": ymm" << r << (r == e->dst ? " (dst)" : "")
                                       << "\n   got " << show(out.r[r]) << "\n  want "
                                       << show(want.r[r]);
      }
      ASSERT_EQ(p.flags_after, p.flags_before) << e->text;
      ASSERT_EQ(p.rax, before.rax) << e->text;
      ASSERT_EQ(p.rcx, before.rcx) << e->text;
      ASSERT_EQ(p.rdx, before.rdx) << e->text;
    }
  }
  // Each encoding's site: the first of its 200 runs trapped, the other 199
  // ran through the stub (or trapped too, with patching off).
  if (!native(Feature::kSha512)) {
    const uint64_t stub_runs = lockstep::sha512ext::stub_instructions() - stubs_before;
    EXPECT_EQ(stub_runs, patching() ? std::size(kEncodings) * 199 : 0u);
  }
}

// Hand-checkable values: rounds on zeros give exactly the round keys'
// contribution, and MSG1/MSG2 on single set bits give the sigma functions.
TEST_F(Sha512extEmulatorTest, KnownValues) {
  YmmFile in = {}, out;
  Probe p;
  // All-zero state, WK = {1, 0}: round 1 gives T1 = 1, so a = e = 1; round 2
  // has T1 = Ch(1, 0, 0) + S1(1) + 0 + 0 = S1(1), a = T1 + Maj(1, 0, 0) +
  // S0(1) = S1(1) + S0(1), e = T1 + 0.
  in.r[2].qword[0] = 1;
  kRnds2_0_1_2.issue(in, out, p);
  const uint64_t S1_1 = (uint64_t{1} << 50) | (uint64_t{1} << 46) | (uint64_t{1} << 23);
  const uint64_t S0_1 = (uint64_t{1} << 36) | (uint64_t{1} << 30) | (uint64_t{1} << 25);
  EXPECT_EQ(out.r[0], (Y{{1, S1_1, 1, S1_1 + S0_1}})) << show(out.r[0]);

  // MSG1 with W[1] = 1 only: W[0] + s0(1) in qword 0, where s0(1) = ROR 1
  // and ROR 8 of 1 (the shift loses it).
  in = {};
  in.r[0].qword[1] = 1;
  kMsg1_0_1.issue(in, out, p);
  EXPECT_EQ(out.r[0], (Y{{(uint64_t{1} << 63) | (uint64_t{1} << 56), 1, 0, 0}})) << show(out.r[0]);
  // W[4], from the source's low qword, reaches qword 3.
  in = {};
  in.r[1].qword[0] = 0x80;
  in.r[1].qword[1] = ~uint64_t{0};  // not read
  kMsg1_0_1.issue(in, out, p);
  EXPECT_EQ(out.r[0], (Y{{0, 0, 0, (uint64_t{1} << 6) | (uint64_t{1} << 63) | 1}})) << show(out.r[0]);

  // MSG2 with W[14] = 1: s1(1) = ROR 19 | ROR 61 lands in qword 0, then
  // s1 of that in qword 2.
  in = {};
  in.r[1].qword[2] = 1;
  kMsg2_0_1.issue(in, out, p);
  const uint64_t s1_1 = (uint64_t{1} << 45) | (uint64_t{1} << 3);
  EXPECT_EQ(out.r[0].qword[0], s1_1);
  EXPECT_EQ(out.r[0].qword[1], 0u);
  EXPECT_EQ(out.r[0].qword[2], s1(s1_1));
  EXPECT_EQ(out.r[0].qword[3], 0u);
}

// After VZEROUPPER the frame holds no YMM upper halves (XSTATE_BV bit 2
// clear): the sources read zeros there, and the write must set the bit and
// leave every other register's upper half zero, not whatever the buffer held.
TEST_F(Sha512extEmulatorTest, UpperHalvesInTheirInitialState) {
  if (native(Feature::kSha512)) GTEST_SKIP() << "SHA512 is native";
  std::mt19937_64 rng(0xc1ea2);
  const uint64_t init_before = lockstep::sha512ext::upper_init_frames();
  for (const Encoding* e : kEncodings) {
    for (int round = 0; round < 50; ++round) {
      YmmFile in = random_file(rng), out;
      Probe p;
      e->issue_clean(in, out, p);
      for (Y& y : in.r) y.qword[2] = y.qword[3] = 0;
      const YmmFile want = expected(*e, in);
      for (int r = 0; r < 16; ++r)
        ASSERT_EQ(out.r[r], want.r[r]) << e->text << ": ymm" << r << "\n   got " << show(out.r[r])
                                       << "\n  want " << show(want.r[r]);
    }
  }
  // Whether a CPU reports the upper halves unused after VZEROUPPER is its
  // choice (XINUSE may stay set); Intel's do.
  EXPECT_GT(lockstep::sha512ext::upper_init_frames(), init_before)
      << "no frame had XSTATE_BV bit 2 clear: the path was not exercised";
}

// VEX.256 zeroes the destination's bits 511:256; every other register keeps
// all 512 bits.
TEST_F(Sha512extEmulatorTest, DestinationBitsAbove255AreZeroed) {
  if (!native(Feature::kAvx512f)) GTEST_SKIP() << "no AVX-512 here";
  std::mt19937_64 rng(0x2e7a);
  for (const Encoding* e : kEncodings) {
    for (int round = 0; round < 50; ++round) {
      ZmmFile in, out;
      for (auto& r : in.r)
        for (uint64_t& q : r) q = rng();
      Probe p;
      e->issue_zmm(in, out, p);
      YmmFile low;
      for (int r = 0; r < 16; ++r) std::memcpy(low.r[r].qword, in.r[r], 32);
      const YmmFile want = expected(*e, low);
      for (int r = 0; r < 16; ++r) {
        Y got;
        std::memcpy(got.qword, out.r[r], 32);
        ASSERT_EQ(got, want.r[r]) << e->text << ": ymm" << r;
        for (int q = 4; q < 8; ++q)
          ASSERT_EQ(out.r[r][q], r == e->dst ? 0 : in.r[r][q]) << e->text << ": zmm" << r << " qword " << q;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// SHA-512 built from the model alone, with the register layout the backend
// uses, holds the model to FIPS 180-4 before it judges the emulator.

constexpr uint64_t kIv512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// The round constants: the first 64 fraction bits of the cube roots of the
// first 80 primes (FIPS 180-4, 4.2.3), computed, so that nothing here is
// copied from the code under test. Cube roots by Newton's method on 128-bit
// integers: floor(cbrt(p * 2^192)) mod 2^64.
std::vector<uint64_t> round_constants() {
  std::vector<uint64_t> k;
  for (unsigned n = 2; k.size() < 80; ++n) {
    bool prime = true;
    for (unsigned d = 2; d * d <= n; ++d) prime = prime && n % d != 0;
    if (!prime) continue;
    // x = floor(cbrt(n) * 2^64) < 8 * 2^64: the largest x with x^3 <= n *
    // 2^192, found bit by bit, with x^3 in 64-bit limbs.
    unsigned __int128 x = 0;
    for (int bit = 66; bit >= 0; --bit) {
      const unsigned __int128 t = x | (static_cast<unsigned __int128>(1) << bit);
      const uint64_t lo = static_cast<uint64_t>(t), hi = static_cast<uint64_t>(t >> 64);
      // t^2 in four limbs, then t^3 in six.
      uint64_t sq[4] = {}, cube[6] = {};
      const uint64_t tl[2] = {lo, hi};
      for (int i = 0; i < 2; ++i) {
        unsigned __int128 carry = 0;
        for (int j = 0; j < 2; ++j) {
          const unsigned __int128 cur = static_cast<unsigned __int128>(tl[i]) * tl[j] + sq[i + j] + carry;
          sq[i + j] = static_cast<uint64_t>(cur);
          carry = cur >> 64;
        }
        sq[i + 2] += static_cast<uint64_t>(carry);
      }
      for (int i = 0; i < 4; ++i) {
        unsigned __int128 carry = 0;
        for (int j = 0; j < 2; ++j) {
          const unsigned __int128 cur = static_cast<unsigned __int128>(sq[i]) * tl[j] + cube[i + j] + carry;
          cube[i + j] = static_cast<uint64_t>(cur);
          carry = cur >> 64;
        }
        cube[i + 2] += static_cast<uint64_t>(carry);
      }
      // t^3 <= n * 2^192: limbs 5..3 against n, then the rest against 0.
      const bool le = cube[5] == 0 && cube[4] == 0 &&
                      (cube[3] < n || (cube[3] == n && (cube[2] | cube[1] | cube[0]) == 0));
      if (le) x = t;
    }
    k.push_back(static_cast<uint64_t>(x));
  }
  return k;
}

// sha512_with_model hashes `msg` with SHA-512 made only of the model's three
// instructions plus additions, in the lane layout of sha512/x86-sha512ext.
Bytes sha512_with_model(const Bytes& msg, const uint64_t iv[8]) {
  static const std::vector<uint64_t> K = round_constants();
  Bytes m = msg;
  const uint64_t bits = uint64_t{msg.size()} * 8;
  m.push_back(0x80);
  while (m.size() % 128 != 112) m.push_back(0);
  for (int i = 15; i >= 0; --i) m.push_back(i < 8 ? static_cast<uint8_t>(bits >> (8 * i)) : 0);
  uint64_t h[8];
  std::memcpy(h, iv, sizeof h);
  for (size_t off = 0; off < m.size(); off += 128) {
    Y w[4];
    for (int i = 0; i < 16; ++i) {
      uint64_t v = 0;
      for (int b = 0; b < 8; ++b) v = v << 8 | m[off + 8 * i + b];
      w[i / 4].qword[i % 4] = v;
    }
    Y abef = {{h[5], h[4], h[1], h[0]}}, cdgh = {{h[7], h[6], h[3], h[2]}};
    for (int g = 0; g < 20; ++g) {
      if (g >= 4) {
        Y& x = w[g % 4];
        const Y& w12 = w[(g + 1) % 4];
        const Y& w8 = w[(g + 2) % 4];
        const Y& w4 = w[(g + 3) % 4];
        x = model_msg1(x, w12);
        const uint64_t w7[4] = {w8.qword[1], w8.qword[2], w8.qword[3], w4.qword[0]};
        for (int q = 0; q < 4; ++q) x.qword[q] += w7[q];
        x = model_msg2(x, w4);
      }
      Y lo = {}, hi = {};
      for (int q = 0; q < 2; ++q) {
        lo.qword[q] = w[g % 4].qword[q] + K[4 * g + q];
        hi.qword[q] = w[g % 4].qword[q + 2] + K[4 * g + q + 2];
      }
      cdgh = model_rnds2(cdgh, abef, lo);
      abef = model_rnds2(abef, cdgh, hi);
    }
    const uint64_t add[8] = {abef.qword[3], abef.qword[2], cdgh.qword[3], cdgh.qword[2],
                             abef.qword[1], abef.qword[0], cdgh.qword[1], cdgh.qword[0]};
    for (int i = 0; i < 8; ++i) h[i] += add[i];
  }
  Bytes out;
  for (uint64_t v : h)
    for (int b = 7; b >= 0; --b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
  return out;
}

Bytes from_hex(const char* s) {
  Bytes out;
  for (; s[0] && s[1]; s += 2) out.push_back(static_cast<uint8_t>(std::stoi(std::string(s, 2), nullptr, 16)));
  return out;
}
Bytes text(const char* s) { return Bytes(s, s + std::strlen(s)); }

// FIPS 180-4 examples (NIST's SHA512.pdf and SHA384.pdf).
const char kAbc512[] =
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
const char kTwoBlock[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
    "mnopqrstnopqrstu";
const char kTwoBlock512[] =
    "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
    "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909";
const char kEmpty512[] =
    "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
    "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e";
const char kAbc384[] =
    "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
    "8086072ba1e7cc2358baeca134c825a7";
const char kMillionA512[] =
    "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
    "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b";

TEST(Sha512extModel, BuildsSha512) {
  EXPECT_EQ(sha512_with_model(text("abc"), kIv512), from_hex(kAbc512));
  EXPECT_EQ(sha512_with_model(text(kTwoBlock), kIv512), from_hex(kTwoBlock512));
  EXPECT_EQ(sha512_with_model(Bytes(), kIv512), from_hex(kEmpty512));
}

// ---------------------------------------------------------------------------
// sha512/x86-sha512ext through the emulator.

using lockstep::kSha512X86Sha512Ext;

Bytes digest512(const Bytes& m, const lockstep::Sha512Backend* b) {
  Bytes out(64);
  lockstep::Sha512::digest(m.data(), m.size(), out.data(), b);
  return out;
}
Bytes digest384(const Bytes& m, const lockstep::Sha512Backend* b) {
  Bytes out(48);
  lockstep::Sha384::digest(m.data(), m.size(), out.data(), b);
  return out;
}

TEST_F(Sha512extEmulatorTest, BackendGivesThePublishedDigests) {
  const uint64_t trapped = lockstep::sha512ext::emulated_instructions();
  EXPECT_EQ(digest512(text("abc"), &kSha512X86Sha512Ext), from_hex(kAbc512));
  // One block: 40 VSHA512RNDS2, 16 VSHA512MSG1, 16 VSHA512MSG2.
  if (!native(Feature::kSha512)) {
    EXPECT_EQ(lockstep::sha512ext::emulated_instructions(), trapped + 72);
  }
  EXPECT_EQ(digest512(text(kTwoBlock), &kSha512X86Sha512Ext), from_hex(kTwoBlock512));
  EXPECT_EQ(digest512(Bytes(), &kSha512X86Sha512Ext), from_hex(kEmpty512));
  EXPECT_EQ(digest384(text("abc"), &kSha512X86Sha512Ext), from_hex(kAbc384));
  EXPECT_EQ(digest512(Bytes(1000000, 'a'), &kSha512X86Sha512Ext), from_hex(kMillionA512));
}

// Many lengths, one-shot and in random pieces, against sha512/generic; and
// the catalog's view of the backend.
TEST_F(Sha512extEmulatorTest, BackendMatchesGeneric) {
  const lockstep::Backend* by_name = lockstep::catalog::find_backend("sha512/x86-sha512ext");
  ASSERT_EQ(by_name, &kSha512X86Sha512Ext);
  const lockstep::catalog::HashAlgorithm* sha384 = lockstep::catalog::find_hash("sha384");
  ASSERT_NE(sha384, nullptr);
  std::mt19937_64 rng(0x512e);
  std::vector<size_t> lengths;
  for (size_t len = 0; len <= 400; ++len) lengths.push_back(len);
  for (size_t len : {1023, 1024, 1025, 4096, 10007, 65536 + 17}) lengths.push_back(len);
  for (size_t len : lengths) {
    Bytes msg(len);
    for (auto& b : msg) b = static_cast<uint8_t>(rng());
    const Bytes want = digest512(msg, &lockstep::kSha512Generic);
    EXPECT_EQ(digest512(msg, &kSha512X86Sha512Ext), want) << "len " << len;
    lockstep::Sha512Ctx ctx;
    lockstep::Sha512::init(ctx, &kSha512X86Sha512Ext);
    for (size_t at = 0; at < len;) {
      const size_t n = std::min<size_t>(len - at, rng() % 300);
      lockstep::Sha512::update(ctx, msg.data() + at, n);
      at += n;
    }
    Bytes split(64);
    lockstep::Sha512::final(ctx, split.data());
    EXPECT_EQ(split, want) << "split, len " << len;
    if (len % 5 == 0) {
      Bytes cat(48);
      sha384->digest(msg.data(), len, cat.data(), by_name);
      EXPECT_EQ(cat, digest384(msg, &lockstep::kSha512Generic)) << "sha384 via catalog, len " << len;
    }
  }
}

// The block function straight, on odd addresses and many blocks at once,
// from states that are not an IV.
TEST_F(Sha512extEmulatorTest, BlockFunctionMatchesGeneric) {
  std::mt19937_64 rng(0xb10c);
  Bytes data(128 * 40 + 1);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  for (size_t n : {1, 2, 3, 17, 40}) {
    lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> a, b;
    for (uint64_t& w : a.h) w = rng();
    b = a;
    kSha512X86Sha512Ext.blocks(&a, data.data() + 1, n);
    lockstep::kSha512Generic.blocks(&b, data.data() + 1, n);
    EXPECT_EQ(std::memcmp(a.h, b.h, sizeof a.h), 0) << n << " blocks";
  }
}

// Threads that meet the backend's sites at once, while they are being
// patched (each test runs in a process of its own, so they start unpatched),
// all get right answers, and so does every later run.
TEST_F(Sha512extEmulatorTest, ThreadsRaceThroughUnpatchedSites) {
  std::mt19937_64 rng(0x7ead);
  Bytes data(128 * 16);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> want;
  std::memcpy(want.h, kIv512, sizeof kIv512);
  lockstep::kSha512Generic.blocks(&want, data.data(), 16);
  std::atomic<int> ready{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      ready.fetch_add(1);
      while (ready.load() < 4) {
      }
      for (int round = 0; round < 20; ++round) {
        lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> st;
        std::memcpy(st.h, kIv512, sizeof kIv512);
        kSha512X86Sha512Ext.blocks(&st, data.data(), 16);
        if (std::memcmp(st.h, want.h, sizeof st.h) != 0) wrong.fetch_add(1);
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  // Alone now: a site whose patch lost the lock to another thread's is
  // patched at this run's trap. Then every site is patched, whatever the
  // compiler made of the unrolled loop: a further run traps no more, and
  // all its 72 instructions per block go through stubs.
  const auto run_once = [&] {
    lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> st;
    std::memcpy(st.h, kIv512, sizeof kIv512);
    kSha512X86Sha512Ext.blocks(&st, data.data(), 16);
    EXPECT_EQ(std::memcmp(st.h, want.h, sizeof st.h), 0);
  };
  run_once();
  if (!native(Feature::kSha512) && patching()) {
    const uint64_t traps = lockstep::sha512ext::emulated_instructions() - lockstep::sha512ext::stub_instructions();
    const uint64_t stubs = lockstep::sha512ext::stub_instructions();
    run_once();
    EXPECT_EQ(lockstep::sha512ext::emulated_instructions() - lockstep::sha512ext::stub_instructions(), traps)
        << "a site still traps after every site was run alone";
    EXPECT_EQ(lockstep::sha512ext::stub_instructions() - stubs, 72u * 16);
    EXPECT_GT(lockstep::sha512ext::patched_sites(), 0u);
  }
}

// A signal handler that issues the instructions may interrupt the main flow
// anywhere, also inside an emulation: the conformance suite's interrupt-
// context case in miniature.
struct IrqState {
  uint8_t block[128];
  lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> expected;
  std::atomic<uint32_t> runs{0}, wrong{0};
};
IrqState g_irq;

void irq_handler(int) {
  const int saved_errno = errno;
  lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> st;
  std::memcpy(st.h, kIv512, sizeof st.h);
  kSha512X86Sha512Ext.blocks(&st, g_irq.block, 1);
  if (std::memcmp(st.h, g_irq.expected.h, sizeof st.h) != 0) g_irq.wrong.fetch_add(1);
  g_irq.runs.fetch_add(1);
  errno = saved_errno;
}

TEST_F(Sha512extEmulatorTest, SignalHandlersMayIssueTheInstructions) {
  std::mt19937_64 rng(0x1219);
  for (auto& b : g_irq.block) b = static_cast<uint8_t>(rng());
  std::memcpy(g_irq.expected.h, kIv512, sizeof kIv512);
  lockstep::kSha512Generic.blocks(&g_irq.expected, g_irq.block, 1);
  Bytes data(128 * 8);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> want;
  std::memcpy(want.h, kIv512, sizeof kIv512);
  lockstep::kSha512Generic.blocks(&want, data.data(), 8);

  struct sigaction sa = {}, old = {};
  sa.sa_handler = irq_handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGALRM, &sa, &old), 0);
  // A handler run is 72 traps, about half a millisecond: a shorter period
  // than that would leave the main flow no time at all.
  itimerval every = {{0, 2000}, {0, 2000}}, off = {};
  ASSERT_EQ(setitimer(ITIMER_REAL, &every, nullptr), 0);
  const auto start = std::chrono::steady_clock::now();
  uint32_t loops = 0, bad = 0;
  // Until the handler has run 200 times, however slow the machine; the cap
  // only ends a run that would otherwise never finish, and then skips.
  while (g_irq.runs.load() < 200 && std::chrono::steady_clock::now() - start < std::chrono::seconds(240)) {
    lockstep::sha2::BlockState<lockstep::sha2::Sha512Family> st;
    std::memcpy(st.h, kIv512, sizeof kIv512);
    kSha512X86Sha512Ext.blocks(&st, data.data(), 8);
    if (std::memcmp(st.h, want.h, sizeof st.h) != 0) ++bad;
    ++loops;
  }
  setitimer(ITIMER_REAL, &off, nullptr);
  sigaction(SIGALRM, &old, nullptr);
  EXPECT_EQ(g_irq.wrong.load(), 0u);
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(loops, 0u);
  if (g_irq.runs.load() < 200)
    GTEST_SKIP() << "the SIGALRM handler ran " << g_irq.runs.load()
                 << " of 200 times before the 240 s cap (a very slow or busy machine); every result "
                    "so far was right";
}

// ---------------------------------------------------------------------------
// What an emulated instruction leaves in memory: a real one writes none, so
// the residue, abi and ct columns must find nothing of the emulator's.

extern "C" {
extern thread_local uint8_t lockstep_sha512ext_stack[];
}

struct IssueCall {
  void (*issue)(const YmmFile&, YmmFile&, Probe&);
  const YmmFile* in;
  YmmFile* out;
  Probe* probe;
};
void run_issue_call(IssueCall* c) { c->issue(*c->in, *c->out, *c->probe); }

// on_stack runs `c` with its stack pointer at `top`, then returns to this
// stack: what the call left below `top` can then be read whole.
__attribute__((noinline)) void on_stack(IssueCall* c, uint8_t* top) {
  __asm__ __volatile__(
      "movq %%rsp, %%rbx\n\t"
      "movq %[top], %%rsp\n\t"
      "call *%[fn]\n\t"
      "movq %%rbx, %%rsp"
      : "+D"(c)
      : [top] "r"(top), [fn] "r"(&run_issue_call)
      : "rax", "rbx", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory", "cc", "xmm0", "xmm1", "xmm2",
        "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
        "xmm15");
}

// Through a patched site (the first run traps and patches it; the second
// goes through the stub), on a zeroed stack of the test's own: no qword of
// any register the instruction read or wrote is left there, and the
// emulator's own stack is all zeros again. Fails
// where the stub kept the XSAVE image or its operands on the patched
// code's stack (as it did: the residue column found them on AVX-512 hosts).
TEST_F(Sha512extEmulatorTest, LeavesNothingOnEitherStack) {
  if (native(Feature::kSha512)) GTEST_SKIP() << "SHA512 is native: the hardware runs it";
  if (!patching()) GTEST_SKIP() << "patching is off: every instruction traps to a handler on the alternate stack";
  std::mt19937_64 rng(0x51ac);
  std::vector<uint8_t> stack(64 * 1024);
  for (const Encoding* e : kEncodings) {
    const YmmFile in = random_file(rng);
    YmmFile out;
    Probe p;
    const YmmFile want = expected(*e, in);
    e->issue(in, out, p);  // traps, patches the site
    ASSERT_EQ(std::memcmp(&out, &want, sizeof out), 0) << e->text;
    std::fill(stack.begin(), stack.end(), 0);
    // What an earlier test's signal handlers left deep in it (they run
    // below an interrupted computation, beyond the frame it clears).
    std::memset(lockstep_sha512ext_stack, 0, lockstep::sha512ext::site_patch::kEmulatorStackBytes);
    IssueCall call{e->issue, &in, &out, &p};
    on_stack(&call, stack.data() + stack.size());
    ASSERT_EQ(std::memcmp(&out, &want, sizeof out), 0) << e->text << " through its stub";
    std::vector<uint64_t> values;
    for (const YmmFile* f : std::initializer_list<const YmmFile*>{&in, &out})
      for (const Y& y : f->r)
        for (uint64_t q : y.qword) values.push_back(q);
    for (size_t off = 0; off + 8 <= stack.size(); off += 8) {
      uint64_t q;
      std::memcpy(&q, stack.data() + off, 8);
      EXPECT_EQ(std::count(values.begin(), values.end(), q), 0)
          << e->text << ": a register's qword " << std::hex << q << " left on the patched code's stack at top-0x"
          << (stack.size() - off);
    }
    const uint8_t* own = lockstep_sha512ext_stack;
    const size_t dirty = std::count_if(own, own + lockstep::sha512ext::site_patch::kEmulatorStackBytes,
                                       [](uint8_t b) { return b != 0; });
    EXPECT_EQ(dirty, 0u) << e->text << ": bytes left on the emulator's own stack (a computation deeper than "
                         << lockstep::sha512ext::site_patch::kComputeStackBytes << " bytes is not cleared)";
  }
}

// ---------------------------------------------------------------------------
// Death tests: forms the emulator does not perform are reported and abort;
// SIGILLs that are not its own still kill, or reach the previous handler.

class Sha512extEmulatorDeathTest : public Sha512extEmulatorTest {
 protected:
  void SetUp() override {
    Sha512extEmulatorTest::SetUp();
    if (native(Feature::kSha512)) GTEST_SKIP() << "SHA512 is native: the hardware runs it";
  }
};

alignas(32) uint8_t g_scratch[64];

#define LS_DEATH_BYTES(name, bytes)                                              \
  void name() {                                                                  \
    no_core();                                                                   \
    __asm__ __volatile__(".byte " bytes : : "a"(g_scratch) : "memory", "xmm0"); \
  }
// vsha512msg1 (%rax), %ymm0: ModRM.mod = 00.
LS_DEATH_BYTES(msg1_memory, "0xc4, 0xe2, 0x7f, 0xcc, 0x00")
// vsha512rnds2 0x10(%rax), %ymm1, %ymm0: ModRM.mod = 01, disp8.
LS_DEATH_BYTES(rnds2_memory, "0xc4, 0xe2, 0x77, 0xcb, 0x40, 0x10")
// VEX.L0 and VEX.W1 forms of vsha512msg1 ymm0, xmm1.
LS_DEATH_BYTES(msg1_l0, "0xc4, 0xe2, 0x7b, 0xcc, 0xc1")
LS_DEATH_BYTES(msg1_w1, "0xc4, 0xe2, 0xff, 0xcc, 0xc1")
// vsha512msg2 with vvvv = ymm1.
LS_DEATH_BYTES(msg2_vvvv, "0xc4, 0xe2, 0x77, 0xcd, 0xc1")
// A CS segment override before vsha512msg2 ymm0, ymm1.
LS_DEATH_BYTES(msg2_cs_prefix, "0x2e, 0xc4, 0xe2, 0x7f, 0xcd, 0xc1")

const char kPrefix[] = "lockstep sha512ext emulator: ";

TEST_F(Sha512extEmulatorDeathTest, UnsupportedFormsAreReported) {
  const std::string p = kPrefix;
  EXPECT_DEATH(msg1_memory(), p + "VSHA512MSG1 at 0x[0-9a-f]+: encoding c4 e2 7f cc 00 has a memory operand");
  EXPECT_DEATH(rnds2_memory(), p + "VSHA512RNDS2 at 0x[0-9a-f]+: .*memory operand.*register form only");
  EXPECT_DEATH(msg1_l0(), p + "VSHA512MSG1 at .*has VEX.L0: the hardware raises #UD");
  EXPECT_DEATH(msg1_w1(), p + "VSHA512MSG1 at .*has VEX.W1");
  EXPECT_DEATH(msg2_vvvv(), p + "VSHA512MSG2 at .*VEX.vvvv != 1111");
  EXPECT_DEATH(msg2_cs_prefix(), p + "VSHA512MSG2 at .*prefix bytes 2e before the VEX prefix");
}

// Instructions that raise SIGILL here and are not the emulator's (ud2 and
// a sent SIGILL: trap_host_test).
// VSM3MSG1 xmm2, xmm1, xmm0 (VEX.128.NP.0F38.W0 DA): SM3 came with SHA512,
// a neighbour that must not be taken for one of ours.
void vsm3msg1() {
  no_core();
  __asm__ __volatile__(".byte 0xc4, 0xe2, 0x70, 0xda, 0xd0" : : : "xmm2");
}
bool has_sm3() {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || a < 1) return false;
  __cpuid_count(7, 1, a, b, c, d);
  return (a >> 1) & 1;
}

TEST_F(Sha512extEmulatorDeathTest, ForeignSigillStillKills) {
  const auto killed = testing::KilledBySignal(SIGILL);
  if (!has_sm3()) {
    EXPECT_EXIT(vsm3msg1(), killed, "");
  }
}

// A foreign SIGILL goes to the handler the host replaced, and ours stays
// installed for the next instruction.
TEST_F(Sha512extEmulatorDeathTest, ForeignSigillReachesThePreviousHandler) {
  auto body = [] {
    lockstep::trap::testing::become_previous(true);
    lockstep::trap::install(lockstep::sha512ext::kTrapEmulator);
    YmmFile in = {}, out;
    Probe p;
    const uint64_t before = lockstep::sha512ext::emulated_instructions();
    kMsg2_0_1.issue(in, out, p);  // still emulated
    if (lockstep::sha512ext::emulated_instructions() != before + 1) _exit(5);
    __asm__ __volatile__("ud2");
  };
  EXPECT_EXIT(body(), testing::ExitedWithCode(3), "previous handler ran");
}

// Under LOCKSTEP_EMULATE=sha512ext, with AVX2 and no mask, dispatch picks the
// backend: nothing above it in the registry has what this CPU lacks.
TEST(Sha512extDispatch, SelectsTheBackendUnderTheSwitch) {
  namespace cpu = lockstep::cpu;
  if (!lockstep::trap::installed_by_environment(lockstep::sha512ext::kTrapEmulator))
    GTEST_SKIP() << "LOCKSTEP_EMULATE does not name sha512ext";
  if (!cpu::state().mask.empty() || !cpu::effective().has(Feature::kAvx2))
    GTEST_SKIP() << "a mask or no AVX2:\n" << cpu::report();
  EXPECT_TRUE(kSha512X86Sha512Ext.usable(cpu::effective())) << cpu::report();
  EXPECT_EQ(lockstep::sha2::default_backend<lockstep::sha2::Sha512Family>(), &kSha512X86Sha512Ext)
      << cpu::report();
}

}  // namespace
