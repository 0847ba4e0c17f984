// The PHE trap emulator against the oracle. The instructions are issued as
// bytes and their results compared with Crypto++ digests, which share no
// code with the OpenSSL block functions the emulator runs. ctest runs this
// binary with LOCKSTEP_EMULATE=phe; the switch itself is the trap host's
// (emulation/trap/trap_host_test.cpp).
#include <cryptopp/sha.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "catalog.h"
#include "cpu/cpu.h"
#include "phe/phe_emulator.h"
#include "trap/test_support.h"
#include "trap/trap.h"
#include "sha256/sha256.h"

namespace {

using Bytes = std::vector<uint8_t>;
using lockstep::phe::kRaxPoison;
using lockstep::cpu::Feature;
using lockstep::trap::testing::native;
using lockstep::trap::testing::no_core;

// The registers one instruction reads and writes.
struct Regs {
  uint64_t rax, rcx;
  const uint8_t* rsi;
  void* rdi;
};

constexpr uint64_t kBlockMode = ~uint64_t{0};  // mov rax, -1

// No assembler knows these instructions, so they are bytes, as in the
// kernel's padlock-sha driver. All four registers are in-out.
void rep_xsha1(Regs& r) {
  __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xc8"
                       : "+a"(r.rax), "+c"(r.rcx), "+S"(r.rsi), "+D"(r.rdi)
                       :
                       : "memory", "cc");
}
void rep_xsha256(Regs& r) {
  __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xd0"
                       : "+a"(r.rax), "+c"(r.rcx), "+S"(r.rsi), "+D"(r.rdi)
                       :
                       : "memory", "cc");
}
void rep_xsha512(Regs& r) {
  __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xe0"
                       : "+a"(r.rax), "+c"(r.rcx), "+S"(r.rsi), "+D"(r.rdi)
                       :
                       : "memory", "cc");
}

constexpr uint32_t kSha1Iv[8] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
constexpr uint32_t kSha256Iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
constexpr uint64_t kSha512Iv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                   0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                   0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr uint64_t kSha384Iv[8] = {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17,
                                   0x152fecd8f70e5939, 0x67332667ffc00b31, 0x8eb44a8768581511,
                                   0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4};

// The 32-byte state of XSHA1/XSHA256 and the 64-byte one of XSHA512.
struct alignas(16) State32 {
  uint8_t b[32];
};
struct alignas(16) State64 {
  uint8_t b[64];
};

// One algorithm as the tests see it: its instruction and its oracle.
struct Algo {
  const char* name;
  void (*insn)(Regs&);
  size_t block, length_field, words, word_size;
  const void* iv;
  Bytes (*oracle)(const Bytes&);
  size_t digest_size;
};

template <class H>
Bytes oracle_digest(const Bytes& m) {
  Bytes out(H::DIGESTSIZE);
  H().CalculateDigest(out.data(), m.data(), m.size());
  return out;
}

const Algo kSha1{"sha1", rep_xsha1, 64, 8, 5, 4, kSha1Iv, oracle_digest<CryptoPP::SHA1>, 20};
const Algo kSha256{"sha256", rep_xsha256, 64, 8, 8, 4, kSha256Iv, oracle_digest<CryptoPP::SHA256>, 32};
const Algo kSha512{"sha512", rep_xsha512, 128, 16, 8, 8, kSha512Iv, oracle_digest<CryptoPP::SHA512>, 64};
const Algo kSha384{"sha384", rep_xsha512, 128, 16, 8, 8, kSha384Iv, oracle_digest<CryptoPP::SHA384>, 48};

Bytes random_bytes(size_t n, std::mt19937_64& rng) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// md_pad appends the Merkle-Damgard padding: done here, not by the emulator,
// so that block mode is checked on its own.
Bytes md_pad(Bytes m, size_t block, size_t length_field) {
  const uint64_t bits = uint64_t{m.size()} * 8;
  m.push_back(0x80);
  while (m.size() % block != block - length_field) m.push_back(0);
  for (size_t i = 0; i < length_field; ++i)
    m.push_back(i < length_field - 8 ? 0 : static_cast<uint8_t>(bits >> (8 * (length_field - 1 - i))));
  return m;
}

// digest_of reads the host-order words of a state buffer as a big-endian
// digest, truncated to the algorithm's size.
Bytes digest_of(const Algo& a, const uint8_t* state) {
  Bytes out;
  for (size_t w = 0; w < a.words; ++w)
    for (size_t i = 0; i < a.word_size; ++i) out.push_back(state[w * a.word_size + a.word_size - 1 - i]);
  out.resize(a.digest_size);
  return out;
}

class PheEmulatorTest : public testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(lockstep::trap::install(lockstep::phe::kTrapEmulator)); }

  // issue runs one instruction and checks what it must leave in registers.
  static void issue(const Algo& a, uint64_t rax, uint64_t rcx, const uint8_t* rsi, void* rdi,
                    size_t consumed) {
    Regs r{rax, rcx, rsi, rdi};
    const uint64_t before = lockstep::phe::emulated_instructions();
    a.insn(r);
    EXPECT_EQ(r.rsi, rsi + consumed) << a.name << ": RSI must advance by the bytes consumed";
    EXPECT_EQ(r.rcx, 0u) << a.name;
    EXPECT_EQ(r.rdi, rdi) << a.name;
    if (!native(a.insn == rep_xsha512 ? Feature::kPhe2 : Feature::kPhe)) {
      EXPECT_EQ(r.rax, kRaxPoison) << a.name;
      EXPECT_EQ(lockstep::phe::emulated_instructions(), before + 1) << a.name;
    }
  }

  // check_block_mode hashes padded random messages in block mode, whole and
  // split in two instructions, from data at an odd address too.
  static void check_block_mode(const Algo& a) {
    std::mt19937_64 rng(0x9e3779b97f4a7c15);
    for (size_t len : {0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 240, 1000, 4109, 70001}) {
      const Bytes msg = random_bytes(len, rng);
      const Bytes padded = md_pad(msg, a.block, a.length_field);
      const size_t n = padded.size() / a.block;
      Bytes shifted(padded.size() + 1);
      std::memcpy(shifted.data() + 1, padded.data(), padded.size());
      for (const uint8_t* data : {padded.data(), static_cast<const uint8_t*>(shifted.data() + 1)}) {
        for (size_t first : {n, n / 2}) {
          State64 st;
          std::memset(st.b, 0xa5, sizeof st.b);
          std::memcpy(st.b, a.iv, a.words * a.word_size);
          // Both spellings of EAX = -1: mov rax, -1 and mov eax, -1.
          if (first) issue(a, kBlockMode, first, data, st.b, first * a.block);
          if (n - first)
            issue(a, 0xffffffffu, n - first, data + first * a.block, st.b, (n - first) * a.block);
          EXPECT_EQ(digest_of(a, st.b), a.oracle(msg)) << a.name << " len " << len << " split " << first;
          if (a.insn == rep_xsha1) {
            for (int i = 20; i < 32; ++i) EXPECT_EQ(st.b[i], 0) << "XSHA1 must zero byte " << i;
          }
          if (a.insn != rep_xsha512) {
            for (int i = 32; i < 64; ++i) EXPECT_EQ(st.b[i], 0xa5) << a.name << " wrote byte " << i;
          }
        }
      }
    }
  }

  // check_finalize hashes messages of many lengths: `p` blocks in block mode,
  // then the rest in finalize mode with EAX = 64p, ECX = the length.
  static void check_finalize(const Algo& a) {
    std::mt19937_64 rng(0x2545f4914f6cdd1d);
    std::vector<size_t> lengths;
    for (size_t len = 0; len <= 300; ++len) lengths.push_back(len);
    for (size_t len : {1000, 4096, 4159, 65599, (1 << 20) + 5}) lengths.push_back(len);
    for (size_t len : lengths) {
      const Bytes msg = random_bytes(len, rng);
      const size_t blocks = len / 64;
      for (size_t p : std::set<size_t>{0, blocks / 2, blocks}) {
        State32 st;
        std::memset(st.b, 0xa5, sizeof st.b);
        std::memcpy(st.b, a.iv, a.words * 4);
        if (p) issue(a, kBlockMode, p, msg.data(), st.b, 64 * p);
        issue(a, 64 * p, len, msg.data() + 64 * p, st.b, len - 64 * p);
        if (len == 0) {
          // ECX = 0 does nothing: the "digest" of the empty message is the
          // IV, not SHA(""), the trap that broke the old Linux driver.
          EXPECT_EQ(std::memcmp(st.b, a.iv, a.words * 4), 0) << a.name;
          EXPECT_NE(digest_of(a, st.b), a.oracle(msg)) << a.name;
          continue;
        }
        EXPECT_EQ(digest_of(a, st.b), a.oracle(msg)) << a.name << " len " << len << " after " << p;
        if (a.insn == rep_xsha1) {
          for (int i = 20; i < 32; ++i) EXPECT_EQ(st.b[i], 0) << "XSHA1 must zero byte " << i;
        }
      }
    }
  }

  // check_ecx_zero: a nonzero state survives ECX = 0 in every mode, byte for byte.
  static void check_ecx_zero(const Algo& a, std::initializer_list<uint64_t> modes) {
    std::mt19937_64 rng(7);
    const Bytes data = random_bytes(256, rng);
    for (uint64_t mode : modes) {
      State64 st;
      for (auto& b : st.b) b = static_cast<uint8_t>(rng());
      const State64 before = st;
      issue(a, mode, 0, data.data(), st.b, 0);
      EXPECT_EQ(std::memcmp(st.b, before.b, sizeof st.b), 0) << a.name << " EAX " << mode;
    }
  }
};

TEST_F(PheEmulatorTest, Xsha1BlockModeMatchesOracle) { check_block_mode(kSha1); }
TEST_F(PheEmulatorTest, Xsha256BlockModeMatchesOracle) { check_block_mode(kSha256); }
TEST_F(PheEmulatorTest, Xsha512BlockModeMatchesOracle) { check_block_mode(kSha512); }
TEST_F(PheEmulatorTest, Xsha512BlockModeMatchesOracleWithSha384Iv) { check_block_mode(kSha384); }

TEST_F(PheEmulatorTest, Xsha1FinalizeMatchesOracle) { check_finalize(kSha1); }
TEST_F(PheEmulatorTest, Xsha256FinalizeMatchesOracle) { check_finalize(kSha256); }

TEST_F(PheEmulatorTest, EcxZeroDoesNothing) {
  check_ecx_zero(kSha1, {kBlockMode, 0, 64, 128});
  check_ecx_zero(kSha256, {kBlockMode, 0, 64, 128});
  check_ecx_zero(kSha512, {kBlockMode});
}

TEST_F(PheEmulatorTest, Xsha1ZeroesBytes20To31) {
  std::mt19937_64 rng(11);
  const Bytes block = random_bytes(64, rng);
  State32 st;
  std::memset(st.b, 0xff, sizeof st.b);
  std::memcpy(st.b, kSha1Iv, 20);
  issue(kSha1, kBlockMode, 1, block.data(), st.b, 64);
  for (int i = 20; i < 32; ++i) EXPECT_EQ(st.b[i], 0) << "byte " << i;
  State32 fin;
  std::memset(fin.b, 0xff, sizeof fin.b);
  std::memcpy(fin.b, kSha1Iv, 20);
  issue(kSha1, 0, 3, block.data(), fin.b, 3);
  for (int i = 20; i < 32; ++i) EXPECT_EQ(fin.b[i], 0) << "byte " << i;
}

// The mode is EAX: whatever is above it in RAX is not read.
TEST_F(PheEmulatorTest, UpperHalfOfRaxIsNotRead) {
  std::mt19937_64 rng(13);
  const Bytes msg = random_bytes(100, rng);
  State32 st;
  std::memcpy(st.b, kSha256Iv, 32);
  issue(kSha256, 0x12345678ffffffffu, 1, msg.data(), st.b, 64);
  issue(kSha256, 0xabcd000000000040u, 100, msg.data() + 64, st.b, 36);
  EXPECT_EQ(digest_of(kSha256, st.b), kSha256.oracle(msg));
}

// sha256/x86-phe, the backend that issues REP XSHA256, over the front end and
// the catalog, with many lengths and splits.
TEST_F(PheEmulatorTest, Sha256X86PheBackendMatchesOracle) {
  using lockstep::kSha256X86Phe;
  const lockstep::catalog::HashAlgorithm* sha256 = lockstep::catalog::find_hash("sha256");
  const lockstep::catalog::HashAlgorithm* sha224 = lockstep::catalog::find_hash("sha224");
  const lockstep::Backend* by_name = lockstep::catalog::find_backend("sha256/x86-phe");
  ASSERT_NE(sha256, nullptr);
  ASSERT_NE(sha224, nullptr);
  ASSERT_EQ(by_name, &kSha256X86Phe);

  // The front end counts calls into backends only when asked (backend.h).
  lockstep::Backend::counting_calls().store(true);
  const uint64_t calls = kSha256X86Phe.calls.load();
  const uint64_t trapped = lockstep::phe::emulated_instructions();
  std::mt19937_64 rng(17);
  std::vector<size_t> lengths;
  for (size_t len = 0; len <= 520; ++len) lengths.push_back(len);
  for (size_t len : {4096, 10007, (1 << 20) + 3}) lengths.push_back(len);
  for (size_t len : lengths) {
    const Bytes msg = random_bytes(len, rng);
    const Bytes want = oracle_digest<CryptoPP::SHA256>(msg);

    uint8_t out[32];
    lockstep::Sha256::digest(msg.data(), len, out, &kSha256X86Phe);
    EXPECT_EQ(Bytes(out, out + 32), want) << "one-shot, len " << len;

    // Random splits, empty updates included.
    lockstep::Sha256Ctx ctx;
    lockstep::Sha256::init(ctx, &kSha256X86Phe);
    for (size_t at = 0; at < len;) {
      const size_t n = std::min<size_t>(len - at, rng() % 150);
      lockstep::Sha256::update(ctx, msg.data() + at, n);
      at += n;
    }
    lockstep::Sha256::final(ctx, out);
    EXPECT_EQ(Bytes(out, out + 32), want) << "split, len " << len;

    if (len % 7 == 0) {
      uint8_t cat[32];
      sha256->digest(msg.data(), len, cat, by_name);
      EXPECT_EQ(Bytes(cat, cat + 32), want) << "catalog, len " << len;
      sha224->digest(msg.data(), len, cat, by_name);
      EXPECT_EQ(Bytes(cat, cat + 28), oracle_digest<CryptoPP::SHA224>(msg)) << "sha224, len " << len;
    }
  }
  EXPECT_GT(kSha256X86Phe.calls.load(), calls);
  if (!native(Feature::kPhe)) {
    EXPECT_GT(lockstep::phe::emulated_instructions(), trapped);
  }
}

// A signal handler that issues the instruction may interrupt the main flow
// anywhere, also while the emulator is in the middle of one: the
// kernel-interrupt-context case of the conformance suite, in miniature.
struct alignas(16) IrqState {
  uint8_t block[64];
  State32 expected;
  std::atomic<uint32_t> runs{0}, wrong{0};
};
IrqState g_irq;

void irq_handler(int) {
  const int saved_errno = errno;
  State32 st;
  std::memcpy(st.b, kSha256Iv, 32);
  Regs r{kBlockMode, 1, g_irq.block, st.b};
  rep_xsha256(r);
  if (std::memcmp(st.b, g_irq.expected.b, 32) != 0) g_irq.wrong.fetch_add(1);
  g_irq.runs.fetch_add(1);
  errno = saved_errno;
}

TEST_F(PheEmulatorTest, SignalHandlersMayIssueTheInstruction) {
  std::mt19937_64 rng(19);
  const Bytes block = random_bytes(64, rng);
  const Bytes data = random_bytes(64 * 64, rng);
  std::memcpy(g_irq.block, block.data(), 64);
  std::memcpy(g_irq.expected.b, kSha256Iv, 32);
  issue(kSha256, kBlockMode, 1, g_irq.block, g_irq.expected.b, 64);
  State32 want;
  std::memcpy(want.b, kSha256Iv, 32);
  issue(kSha256, kBlockMode, 64, data.data(), want.b, 64 * 64);

  struct sigaction sa = {}, old = {};
  sa.sa_handler = irq_handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGALRM, &sa, &old), 0);
  itimerval every = {{0, 100}, {0, 100}}, off = {};
  ASSERT_EQ(setitimer(ITIMER_REAL, &every, nullptr), 0);
  const auto start = std::chrono::steady_clock::now();
  uint32_t loops = 0;
  // Until the handler has run 200 times, however slow the machine; the cap
  // only ends a run that would otherwise never finish, and then skips.
  while (g_irq.runs.load() < 200 && std::chrono::steady_clock::now() - start < std::chrono::seconds(240)) {
    State32 st;
    std::memcpy(st.b, kSha256Iv, 32);
    Regs r{kBlockMode, 64, data.data(), st.b};
    rep_xsha256(r);
    EXPECT_EQ(std::memcmp(st.b, want.b, 32), 0);
    ++loops;
  }
  setitimer(ITIMER_REAL, &off, nullptr);
  sigaction(SIGALRM, &old, nullptr);
  EXPECT_EQ(g_irq.wrong.load(), 0u);
  EXPECT_GT(loops, 0u);
  if (g_irq.runs.load() < 200)
    GTEST_SKIP() << "the SIGALRM handler ran " << g_irq.runs.load()
                 << " of 200 times before the 240 s cap (a very slow or busy machine); every result "
                    "so far was right";
}

// Death tests: misuse is reported and aborts; SIGILLs that are not ours still
// kill. Each runs in a child; no core files.
class PheEmulatorDeathTest : public PheEmulatorTest {
 protected:
  void SetUp() override {
    PheEmulatorTest::SetUp();
    if (native(Feature::kPhe)) GTEST_SKIP() << "PHE is native: the hardware, not the emulator, runs it";
  }
  static void run(const Algo& a, uint64_t rax, uint64_t rcx, const uint8_t* rsi, void* rdi) {
    no_core();
    Regs r{rax, rcx, rsi, rdi};
    a.insn(r);
  }
};

const char kPrefix[] = "lockstep phe emulator: ";

TEST_F(PheEmulatorDeathTest, MisalignedStateIsReported) {
  alignas(16) uint8_t buf[128] = {};
  const uint8_t data[256] = {};
  struct Case {
    const Algo* a;
    const char* insn;
  };
  for (const Case& c : {Case{&kSha1, "REP XSHA1"}, Case{&kSha256, "REP XSHA256"},
                        Case{&kSha512, "REP XSHA512"}}) {
    const std::string want = std::string(kPrefix) + c.insn +
                             " at 0x[0-9a-f]+: state buffer 0x[0-9a-f]+ is not 16-byte aligned";
    for (size_t off : {1, 4, 8}) {
      EXPECT_DEATH(run(*c.a, kBlockMode, 1, data, buf + off), want) << c.insn << " +" << off;
    }
    // Even with nothing to do.
    EXPECT_DEATH(run(*c.a, kBlockMode, 0, data, buf + 8), want) << c.insn;
  }
  EXPECT_DEATH(run(kSha256, 0, 3, data, buf + 8), std::string(kPrefix) + "REP XSHA256 at .*aligned");
}

TEST_F(PheEmulatorDeathTest, UndocumentedOperandsAreReported) {
  alignas(16) uint8_t buf[64] = {};
  const uint8_t data[512] = {};
  EXPECT_DEATH(run(kSha256, kBlockMode, (uint64_t{1} << 32) | 1, data, buf),
               "REP XSHA256 at 0x[0-9a-f]+: RCX = 0x100000001 has bits above ECX");
  EXPECT_DEATH(run(kSha512, 0, 1, data, buf), "REP XSHA512 .*XSHA512 has only block mode");
  EXPECT_DEATH(run(kSha256, 32, 100, data, buf), "REP XSHA256 .*EAX = 0x20 and ECX = 0x64.*multiple of 64");
  EXPECT_DEATH(run(kSha1, 128, 100, data, buf), "REP XSHA1 .*EAX = 0x80 and ECX = 0x64.*at most ECX");
}

// PadLock instructions that raise SIGILL here and are not the emulator's
// (ud2 and a sent SIGILL: trap_host_test).
void rep_montmul() {  // the PadLock opcode next door, not emulated
  no_core();
  __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xc0");
}
void xsha256_without_rep() {
  no_core();
  __asm__ __volatile__(".byte 0x0f, 0xa6, 0xd0");
}

TEST_F(PheEmulatorDeathTest, ForeignSigillStillKills) {
  const auto killed = testing::KilledBySignal(SIGILL);
  EXPECT_EXIT(rep_montmul(), killed, "");
  EXPECT_EXIT(xsha256_without_rep(), killed, "");
}

// The handler the host replaced gets foreign SIGILLs, and PHE instructions
// are still emulated.
TEST_F(PheEmulatorDeathTest, ForeignSigillReachesThePreviousHandler) {
  auto body = [] {
    lockstep::trap::testing::become_previous(false);
    lockstep::trap::install(lockstep::phe::kTrapEmulator);
    alignas(16) uint8_t st[32] = {};
    const uint8_t data[64] = {};
    Regs r{kBlockMode, 1, data, st};
    rep_xsha256(r);  // still emulated
    if (r.rax != kRaxPoison) _exit(4);
    __asm__ __volatile__("ud2");
  };
  EXPECT_EXIT(body(), testing::ExitedWithCode(3), "previous handler ran");
}

}  // namespace
