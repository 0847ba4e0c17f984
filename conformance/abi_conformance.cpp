// The abi column: every function a backend exposes, lockstep's own and
// modules' alike, runs through abi/'s trampoline (an AbiAudit) over lengths
// around every block and lane boundary. A callee-saved register it does not
// preserve fails its row with the register, the function and the call named;
// upper vector state left dirty (no vzeroupper) is a warning, never a
// failure: the test records it and the matrix shows WARN. For modules built
// with the kernel environment, the kernel_fpu sections are judged too:
// their length against a 4 KiB budget on x86, and dirty upper state
// at their end.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "abi/abi_check.h"
#include "backend_fixture.h"
#include "chacha/chacha.h"
#include "cpu/cpu.h"
#include "host/guard.h"
#include "host/kernel_host.h"

namespace lockstep::conformance {
namespace {

// 1 and 2 blocks of 64, 4 and 8 lanes of the wide ChaCha paths, the SHA-2
// padding boundaries (55/56, 111/112) and a tail on each side.
constexpr size_t kLengths[] = {0,   1,   3,   55,  56,  63,  64,  65,  111, 112, 119,  127,
                               128, 129, 191, 255, 256, 257, 511, 512, 513, 1000, 4096, 4099};

// A host whose CPU reports the upper state clean after a zeroing idiom
// cannot judge a vzeroupper missing after code that left only zeros there:
// said on the cell of a backend that may run VEX code (it declares AVX, or
// is a module, whose code lockstep cannot tell), never passed over.
void note_what_this_host_cannot_judge(const Backend& b) {
  if (!abi::upper_state_blind_to_zeroing_idioms()) return;
  if (b.module.empty() && !cpu::with_prerequisites(b.needs).has(cpu::Feature::kAvx)) return;
  note("upper state: this CPU reports it clean after a zeroing idiom, so a vzeroupper missing after code that "
       "left only zeros in the upper halves is not judged here (a CPU that tracks them, Intel's, judges it)");
}

// judge fails the running test for each register the audit saw clobbered,
// naming `row` and `call` (which reproduces it), and records the warnings.
void judge(const AbiAudit& audit, const std::string& row, const std::string& call) {
  EXPECT_GT(audit.calls(), 0u) << row << ": " << call << " made no call through the trampoline";
  for (const AbiAudit::Finding& f : audit.findings()) {
    if (!f.report.ok()) {
      ADD_FAILURE() << row << ": abi: " << f.function << "() " << f.report.to_string() << " ("
                    << call << ")";
    } else if (f.report.upper_vector_state_dirty) {
      warn(fmt::format("{}: abi: {}() {} ({})", row, f.function, f.report.to_string(), call));
    }
  }
}

// AbiTest skips, with the reason, where this build has no trampoline.
template <class Fixture>
class AbiTest : public Fixture {
 protected:
  void SetUp() override {
    Fixture::SetUp();
    if (!testing::Test::IsSkipped() && !abi::kSupported)
      GTEST_SKIP() << "no ABI trampoline for this architecture";
  }
};

class HashAbi : public AbiTest<BackendTest> {};

INSTANTIATE_TEST_SUITE_P(All, HashAbi, testing::ValuesIn(hash_params()), HashParamName());

// Test blocks() through one-shot digests and HMACs (short and over-long
// keys), and finup_2x where the algorithm has it.
TEST_P(HashAbi, CalleeSavedRegisters) {
  const Bytes short_key = rng().bytes(13), long_key = rng().bytes(block_size() + 1);
  for (const size_t len : kLengths) {
    const Bytes msg = rng().bytes(len), other = rng().bytes(len);
    {
      AbiAudit audit;
      digest(msg);
      judge(audit, label(), fmt::format("digest, len={}", len));
    }
    for (const Bytes* key : {&short_key, &long_key}) {
      AbiAudit audit;
      hmac(*key, msg);
      judge(audit, label(), fmt::format("hmac, key {} bytes, len={}", key->size(), len));
    }
    if (alg().finup_2x != nullptr) {
      Bytes out1(digest_size()), out2(digest_size());
      AbiAudit audit;
      alg().finup_2x(nullptr, msg.data(), other.data(), len, out1.data(), out2.data(), backend());
      judge(audit, label(), fmt::format("finup_2x from the empty context, len={}", len));
    }
    if (HasFailure()) return;
  }
  note_what_this_host_cannot_judge(*backend());
}

// The kernel's rules for a SIMD section, judged on one call long enough to
// need several: on x86, where kernel_fpu_begin() keeps preemption off, no
// section should run over 4 KiB (the kernel's ChaCha glue splits its work
// at SZ_4K; its SHA-2 glue takes a whole update, and is told so); and the
// code in a section ends with vzeroupper, so no ymm/zmm upper state is in
// use at kernel_fpu_end(). Only for modules built with the kernel
// environment, whose sections the host counts. arm64 glue keeps no budget
// (kernel-mode NEON is preemptible in current kernels).
template <class Call>
void judge_sections(const lockstep::Backend& b, const std::string& row, size_t len, Call&& call) {
  if (!b.kernel_environment) GTEST_SKIP() << "not built with lockstep's kernel environment";
  namespace k = module::kernel;
  const k::SectionStats before = k::section_stats();
  call();
  const k::SectionStats after = k::section_stats();
  const uint64_t sections = after.sections - before.sections;
  const uint64_t dirty = after.dirty_upper_at_end - before.dirty_upper_at_end;
  if (dirty > 0)
    warn(fmt::format("{}: {} of {} kernel_fpu sections ended with ymm/zmm upper state in use (no vzeroupper "
                     "before kernel_fpu_end), over a {}-byte call",
                     row, dirty, sections, len));
#if defined(__x86_64__)
  constexpr size_t kBudget = 4096;
  // The average is a lower bound of the longest section, where every byte
  // ran in one. Under LOCKSTEP_KERNEL_SIMD=alternate the glue takes its
  // generic path, outside any section, on every other chunk: the average
  // says nothing there (and would vary with the alternation's phase), so
  // the native environment judges the length.
  const char* simd = std::getenv("LOCKSTEP_KERNEL_SIMD");
  const bool alternating = simd != nullptr && std::string_view(simd) == "alternate";
  if (alternating && sections > 0)
    note("section lengths are judged natively: here the glue's generic path runs outside its sections");
  if (sections > 0 && !alternating && len / sections > kBudget + 128)
    warn(fmt::format("{}: a {}-byte call ran in {} kernel_fpu section(s), {} bytes each on average: over "
                     "4 KiB per section, preemption off all along (the kernel's ChaCha glue splits at 4 KiB)",
                     row, len, sections, len / sections));
#endif
  EXPECT_FALSE(after.open) << row << ": a kernel_fpu/neon section is still open after the call";
}

// 16 KiB and a partial block: SIMD paths, several sections, a tail.
constexpr size_t kSectionCallLength = 16 * 1024 + 65;

TEST_P(HashAbi, KernelSections) {
  const Bytes msg = rng().bytes(kSectionCallLength);
  judge_sections(*backend(), label(), msg.size(), [&] { digest(msg); });
}

class CipherAbi : public AbiTest<CipherTest> {};

INSTANTIATE_TEST_SUITE_P(All, CipherAbi, testing::ValuesIn(cipher_params()), CipherParamName());

// Test crypt() apart and in place, and a subkey derivation of the backend's
// own (a module's hchacha) on the XChaCha20 row.
TEST_P(CipherAbi, CalleeSavedRegisters) {
  const Bytes key = rng().bytes(32), nonce = rng().bytes(alg().nonce_size);
  for (const size_t len : kLengths) {
    Bytes buf = rng().bytes(len), out(len);
    {
      AbiAudit audit;
      crypt(key, 1, nonce, out.data(), buf.data(), len);
      judge(audit, label(), fmt::format("crypt, len={}", len));
    }
    {
      AbiAudit audit;
      crypt(key, 1, nonce, buf.data(), buf.data(), len);
      judge(audit, label(), fmt::format("crypt in place, len={}", len));
    }
    if (HasFailure()) return;
  }
  for (const catalog::SubkeyAlgorithm* k : alg().family->subkeys) {
    if (alg().nonce_size != chacha::kXNonceSize) continue;
    Bytes out(k->output_size);
    AbiAudit audit;
    if (k->derive_by(backend(), key.data(), nonce.data(), out.data()))
      judge(audit, label(), fmt::format("its own {}", k->name));
  }
  if (!HasFailure()) note_what_this_host_cannot_judge(*backend());
}

TEST_P(CipherAbi, KernelSections) {
  const Bytes key = rng().bytes(32), nonce = rng().bytes(alg().nonce_size);
  Bytes buf = rng().bytes(kSectionCallLength);
  judge_sections(*backend(), label(), buf.size(), [&] { crypt(key, 1, nonce, buf.data(), buf.data(), buf.size()); });
}

}  // namespace
}  // namespace lockstep::conformance
