// CipherDriverConformance: a backend that is a whole-message XChaCha
// driver (module.h's lockstep_cipher_driver: a kernel glue's xchacha20 or
// xchacha12 skcipher, through the crypto API model), driven as the kernel's
// users drive one: a key, the 32-byte IV (nonce, then the 64-bit stream
// position), one request. Every length, in place and apart, buffers
// misaligned and flush against an unmapped page, a message continued at a
// later stream position, and the block counter across its 2^32 wrap. Every
// output is compared with reference.h's expected_xchacha (the oracle's
// HChaCha and ChaCha, or the generic backend's in a build without one).
#include <cstring>
#include <vector>

#include "abi/abi_check.h"
#include "backend_fixture.h"
#include "chacha/chacha.h"
#include "guarded_buffer.h"
#include "oracle/oracle.h"

namespace lockstep::conformance {
namespace {

constexpr size_t kIvSize = 32;

class CipherDriverConformance : public testing::TestWithParam<CipherParam> {
 protected:
  void SetUp() override {
    rng_ = Rng(test_seed());
    scope_.enter_driver(backend());
  }
  void TearDown() override { scope_.leave(); }

  const Backend* backend() const { return GetParam().backend; }
  const lockstep_cipher_driver& driver() const { return *backend()->cipher_driver; }
  int rounds() const { return driver().nrounds; }
  std::string label() const {
    return "XChaCha" + std::to_string(rounds()) + " via " + std::string(backend()->name);
  }
  Rng& rng() { return rng_; }

  // iv is the kernel's XChaCha IV: the nonce, then the block counter as a
  // 64-bit little-endian stream position (its high word 0: lockstep's
  // counter is word 12 alone, as the kernel's chacha_crypt advances it).
  static Bytes iv(std::span<const uint8_t> nonce, uint32_t counter) {
    Bytes out(nonce.begin(), nonce.end());
    for (int i = 0; i < 8; ++i) out.push_back(i < 4 ? static_cast<uint8_t>(counter >> (8 * i)) : 0);
    return out;
  }

  // crypt is one request through the driver, counted for the backend, with
  // the callee-saved registers the module's to keep (abi::call_preserving).
  void crypt(std::span<const uint8_t> key, std::span<const uint8_t> nonce, uint32_t counter, uint8_t* dst,
             const uint8_t* src, size_t len) {
    const Bytes v = iv(nonce, counter);
    backend()->count_call();
    const int rc = abi::call_preserving(driver().crypt, &driver(), key.data(), v.data(), dst, src, len);
    EXPECT_EQ(rc, 0) << label() << ": crypt returned " << rc;
  }

  Bytes expected(std::span<const uint8_t> key, std::span<const uint8_t> nonce, uint32_t counter,
                 std::span<const uint8_t> msg) {
    return expected_xchacha(rounds(), key, nonce, counter, msg);
  }

 private:
  BackendScope scope_;
  Rng rng_{0};
};

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CipherDriverConformance);
INSTANTIATE_TEST_SUITE_P(All, CipherDriverConformance, testing::ValuesIn(cipher_driver_params()),
                         CipherParamName());

}  // namespace

// Test every length up to four blocks and a few past a page, the source
// ending at an unmapped page, into a buffer apart (ending at one too) and
// in place.
TEST_P(CipherDriverConformance, EveryLengthApartAndInPlace) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 4 * chacha::kBlockSize + 1; ++n) lengths.push_back(n);
  for (size_t n : {size_t{1000}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{65536 + 17}}) lengths.push_back(n);
  GuardedBuffer src(lengths.back(), "source"), dst(lengths.back(), "destination");
  for (size_t len : lengths) {
    CASE_TRACE(testing::Message() << "len=" << len);
    const Bytes key = rng().bytes(chacha::kKeySize), nonce = rng().bytes(chacha::kXNonceSize);
    const uint32_t counter = static_cast<uint32_t>(rng().below(1000));
    uint8_t* in = src.tail(len);
    rng().fill(in, len);
    const Bytes msg(in, in + len);
    const Bytes want = expected(key, nonce, counter, msg);
    crypt(key, nonce, counter, dst.tail(len), in, len);
    EXPECT_TRUE(same_bytes({dst.tail(len), len}, want)) << label() << ": apart, len=" << len;
    crypt(key, nonce, counter, in, in, len);
    EXPECT_TRUE(same_bytes({in, len}, want)) << label() << ": in place, len=" << len;
    if (HasFailure()) break;
  }
}

// Test source and destination at every offset 0..15 from 16-byte
// alignment, apart.
TEST_P(CipherDriverConformance, Misaligned) {
  constexpr size_t kLen = 5 * chacha::kBlockSize + 13;
  const Bytes key = rng().bytes(chacha::kKeySize), nonce = rng().bytes(chacha::kXNonceSize);
  const Bytes msg = rng().bytes(kLen);
  const Bytes want = expected(key, nonce, 7, msg);
  std::vector<uint8_t> in(kLen + 32), out(kLen + 32);
  const auto aligned = [](uint8_t* p) { return p + (16 - reinterpret_cast<uintptr_t>(p) % 16) % 16; };
  for (size_t a = 0; a < 16; ++a)
    for (size_t b : {size_t{0}, size_t{1}, size_t{3}, size_t{8}, size_t{15}}) {
      CASE_TRACE(testing::Message() << "source offset " << a << ", destination offset " << b);
      uint8_t* s = aligned(in.data()) + a;
      uint8_t* d = aligned(out.data()) + b;
      std::memcpy(s, msg.data(), kLen);
      crypt(key, nonce, 7, d, s, kLen);
      EXPECT_TRUE(same_bytes({d, kLen}, want)) << label() << ": offsets " << a << ", " << b;
      if (HasFailure()) return;
    }
}

// Test a message in two requests, the second at the stream position where
// the first ended (whole blocks), as a user continues one: the same bytes
// as one request.
TEST_P(CipherDriverConformance, ContinuedAtStreamPosition) {
  const Bytes key = rng().bytes(chacha::kKeySize), nonce = rng().bytes(chacha::kXNonceSize);
  const size_t len = 4096 + 3 * chacha::kBlockSize + 9;
  const Bytes msg = rng().bytes(len);
  const Bytes want = expected(key, nonce, 3, msg);
  for (size_t blocks : {size_t{0}, size_t{1}, size_t{2}, size_t{8}, size_t{64}, size_t{67}}) {
    CASE_TRACE(testing::Message() << "first request " << blocks << " blocks");
    const size_t split = blocks * chacha::kBlockSize;
    Bytes out(len);
    crypt(key, nonce, 3, out.data(), msg.data(), split);
    crypt(key, nonce, static_cast<uint32_t>(3 + blocks), out.data() + split, msg.data() + split, len - split);
    EXPECT_TRUE(same_bytes(out, want)) << label() << ": split after " << blocks << " blocks";
  }
}

// Test the block counter across 2^32: word 12 wraps to 0 and the stream
// position's high word stays as it was, as the kernel's chacha_crypt
// advances it.
TEST_P(CipherDriverConformance, CounterAcrossItsWrap) {
  const Bytes key = rng().bytes(chacha::kKeySize), nonce = rng().bytes(chacha::kXNonceSize);
  for (uint32_t counter : {0xffffffffu, 0xfffffffeu, 0xfffffff9u}) {
    const size_t len = 9 * chacha::kBlockSize + 5;
    const Bytes msg = rng().bytes(len);
    Bytes out(len);
    crypt(key, nonce, counter, out.data(), msg.data(), len);
    EXPECT_TRUE(same_bytes(out, expected(key, nonce, counter, msg))) << label() << ": from block " << counter;
  }
}

// Test that the reference's two ways to XChaCha12's key agree: Crypto++'s
// ChaCha12 block (the oracle's HChaCha12) and lockstep's generic hchacha,
// on random keys and nonces. expected_xchacha takes the first.
TEST(CipherDriverReference, Hchacha12FromTheOracleAgreesWithTheGeneric) {
  constexpr oracle::Source kSource = oracle::Source::kCryptoppPortable;
  if (!oracle::available(kSource)) GTEST_SKIP() << "this build has no oracle";
  Rng rng(test_seed());
  for (int i = 0; i < 64; ++i) {
    const Bytes key = rng.bytes(chacha::kKeySize), nonce = rng.bytes(chacha::kHNonceSize);
    chacha::State s;
    chacha::init(s, key.data(), nonce.data());
    uint32_t words[8];
    chacha::hchacha(s, words, 12);
    Bytes generic(chacha::kKeySize);
    for (int w = 0; w < 8; ++w)
      for (int b = 0; b < 4; ++b) generic[4 * w + b] = static_cast<uint8_t>(words[w] >> (8 * b));
    EXPECT_EQ(oracle::hchacha(kSource, 12, key, nonce), generic);
    EXPECT_EQ(oracle::hchacha(oracle::Source::kCryptoppSimd, 12, key, nonce), generic);
  }
}

}  // namespace lockstep::conformance
