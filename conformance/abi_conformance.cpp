// The abi column: every function a backend exposes, lockstep's own and
// modules' alike, runs through abi/'s trampoline (an AbiAudit) over lengths
// around every block and lane boundary. A callee-saved register it does not
// preserve fails its row with the register, the function and the call named;
// upper vector state left dirty is printed as a warning, never a failure.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "abi/abi_check.h"
#include "backend_fixture.h"
#include "chacha/chacha.h"
#include "module/guard.h"

namespace lockstep::conformance {
namespace {

// 1 and 2 blocks of 64, 4 and 8 lanes of the wide ChaCha paths, the SHA-2
// padding boundaries (55/56, 111/112) and a tail on each side.
constexpr size_t kLengths[] = {0,   1,   3,   55,  56,  63,  64,  65,  111, 112, 119,  127,
                               128, 129, 191, 255, 256, 257, 511, 512, 513, 1000, 4096, 4099};

// judge fails the running test for each register the audit saw clobbered,
// naming `row` and `call` (which reproduces it), and prints the warnings.
void judge(const AbiAudit& audit, const std::string& row, const std::string& call) {
  EXPECT_GT(audit.calls(), 0u) << row << ": " << call << " made no call through the trampoline";
  for (const AbiAudit::Finding& f : audit.findings()) {
    if (!f.report.ok()) {
      ADD_FAILURE() << row << ": abi: " << f.function << "() " << f.report.to_string() << " ("
                    << call << ")";
    } else if (f.report.upper_vector_state_dirty) {
      std::printf("[ WARNING  ] %s: abi: %s() %s (%s)\n", row.c_str(), f.function.c_str(),
                  f.report.to_string().c_str(), call.c_str());
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
}

}  // namespace
}  // namespace lockstep::conformance
