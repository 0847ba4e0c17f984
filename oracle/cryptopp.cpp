// The Crypto++ adapter, in two modes. Crypto++ picks its code path at each
// call from global CPU feature flags (cpu.h), so portable mode clears them
// for the duration of one call and restores them afterwards. Every Crypto++
// call of this adapter, in either mode, holds one mutex: otherwise a thread
// in SIMD mode could run while another has the flags cleared. (Crypto++ used
// elsewhere in the process, outside this adapter, is not protected.)
#include <cryptopp/algparam.h>
#include <cryptopp/argnames.h>
#include <cryptopp/chacha.h>
#include <cryptopp/cpu.h>
#include <cryptopp/hmac.h>
#include <cryptopp/sha.h>

#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "cryptopp_sha512t.h"
#include "internal.h"

namespace lockstep::oracle::detail {
namespace {

std::mutex g_mutex;

#if CRYPTOPP_BOOL_X86 || CRYPTOPP_BOOL_X32 || CRYPTOPP_BOOL_X64
// Every "has" flag Crypto++ 8.7 declares for x86. SSE2 must go too: on
// x86-64 Crypto++ has an SSE2 assembly path for SHA-256 below SHA-NI.
bool* const kFlags[] = {
    &CryptoPP::g_hasSSE2,       &CryptoPP::g_hasSSSE3,       &CryptoPP::g_hasSSE41,
    &CryptoPP::g_hasSSE42,      &CryptoPP::g_hasMOVBE,       &CryptoPP::g_hasAESNI,
    &CryptoPP::g_hasCLMUL,      &CryptoPP::g_hasAVX,         &CryptoPP::g_hasAVX2,
    &CryptoPP::g_hasSHA,        &CryptoPP::g_hasADX,         &CryptoPP::g_hasRDRAND,
    &CryptoPP::g_hasRDSEED,     &CryptoPP::g_hasPadlockRNG,  &CryptoPP::g_hasPadlockACE,
    &CryptoPP::g_hasPadlockACE2, &CryptoPP::g_hasPadlockPHE, &CryptoPP::g_hasPadlockPMM,
};
// Detection is lazy; it must have run before the flags are saved, or a later
// Has*() call would redetect and overwrite the cleared flags.
void detect_once() {
  if (!CryptoPP::g_x86DetectionDone) CryptoPP::DetectX86Features();
}
#elif CRYPTOPP_BOOL_ARM32 || CRYPTOPP_BOOL_ARMV8
bool* const kFlags[] = {
    &CryptoPP::g_hasNEON,   &CryptoPP::g_hasPMULL, &CryptoPP::g_hasCRC32,
    &CryptoPP::g_hasAES,    &CryptoPP::g_hasSHA1,  &CryptoPP::g_hasSHA2,
    &CryptoPP::g_hasSHA512, &CryptoPP::g_hasSHA3,  &CryptoPP::g_hasSM3,
    &CryptoPP::g_hasSM4,
};
void detect_once() {
  if (!CryptoPP::g_ArmDetectionDone) CryptoPP::DetectArmFeatures();
}
#else
// No flags known for this architecture: both modes take the same path.
bool* const kFlags[] = {nullptr};
void detect_once() {}
#endif

// ModeGuard holds the mutex for one Crypto++ call and, in portable mode,
// keeps the feature flags cleared until it goes out of scope.
class ModeGuard {
 public:
  explicit ModeGuard(bool portable) : lock_(g_mutex), portable_(portable) {
    detect_once();
    if (!portable_) return;
    for (size_t i = 0; i < std::size(kFlags); ++i) {
      if (!kFlags[i]) continue;
      saved_[i] = *kFlags[i];
      *kFlags[i] = false;
    }
  }
  ~ModeGuard() {
    if (!portable_) return;
    for (size_t i = 0; i < std::size(kFlags); ++i)
      if (kFlags[i]) *kFlags[i] = saved_[i];
  }
  ModeGuard(const ModeGuard&) = delete;
  ModeGuard& operator=(const ModeGuard&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
  bool portable_;
  std::array<bool, std::size(kFlags)> saved_{};
};

struct Entry {
  std::string_view name;
  std::unique_ptr<CryptoPP::HashTransformation> (*hash)();
  std::unique_ptr<CryptoPP::MessageAuthenticationCode> (*hmac)();
};

template <class H>
std::unique_ptr<CryptoPP::HashTransformation> make_hash() {
  return std::make_unique<H>();
}
template <class H>
std::unique_ptr<CryptoPP::MessageAuthenticationCode> make_hmac() {
  return std::make_unique<CryptoPP::HMAC<H>>();
}

#define LOCKSTEP_CRYPTOPP_ENTRY(name, cls, evp) Entry{name, &make_hash<cls>, &make_hmac<cls>},
constexpr Entry kEntries[] = {LOCKSTEP_ORACLE_HASHES(LOCKSTEP_CRYPTOPP_ENTRY)};
#undef LOCKSTEP_CRYPTOPP_ENTRY

const Entry& entry(std::string_view alg) {
  for (const Entry& e : kEntries)
    if (e.name == alg) return e;
  throw std::invalid_argument("oracle: unknown algorithm " + std::string(alg));
}

Bytes finish(CryptoPP::HashTransformation& h) {
  Bytes out(h.DigestSize());
  h.Final(out.data());
  return out;
}

class CryptoppStream : public StreamImpl {
 public:
  CryptoppStream(std::string_view alg, bool portable) : portable_(portable) {
    ModeGuard guard(portable_);
    hash_ = entry(alg).hash();
  }
  void update(std::span<const uint8_t> data) override {
    ModeGuard guard(portable_);
    hash_->Update(nonnull(data), data.size());
  }
  Bytes final() override {
    ModeGuard guard(portable_);
    return finish(*hash_);
  }

 private:
  bool portable_;
  std::unique_ptr<CryptoPP::HashTransformation> hash_;
};

// ChachaDjb is Crypto++'s original ChaCha (Bernstein's layout: a 64-bit
// block counter in words 12..13, a 64-bit IV in words 14..15) with its
// policy's SeekToIteration in reach. The public Seek() takes a byte offset,
// which stops at block 2^58, but the IETF layout puts the whole first nonce
// word in word 13.
class ChachaDjb : public CryptoPP::ChaCha::Encryption {
 public:
  void seek_block(uint64_t block) { AccessPolicy().SeekToIteration(block); }
};

// key_djb sets up the original ChaCha with `rounds` rounds on `key`, the
// 64-bit block counter `block` (words 12..13) and the 8-byte `iv` (words
// 14..15).
void key_djb(ChachaDjb& c, int rounds, std::span<const uint8_t> key, uint64_t block,
             const uint8_t* iv) {
  c.SetKey(key.data(), key.size(),
           CryptoPP::MakeParameters(CryptoPP::Name::Rounds(), rounds)(
               CryptoPP::Name::IV(), CryptoPP::ConstByteArrayParameter(iv, 8, false)));
  c.seek_block(block);
}

// The parameters of ChaChaTLS and XChaCha20: the key's IV and the first
// block. "InitialBlock" must be a word64: Crypto++ matches the type exactly.
CryptoPP::AlgorithmParameters tls_params(std::span<const uint8_t> iv, uint32_t counter) {
  return CryptoPP::MakeParameters(CryptoPP::Name::IV(),
                                  CryptoPP::ConstByteArrayParameter(iv.data(), iv.size(), false))(
      "InitialBlock", static_cast<CryptoPP::word64>(counter));
}

}  // namespace

Bytes cryptopp_chacha(int rounds, bool portable, std::span<const uint8_t> key, uint32_t counter,
                      std::span<const uint8_t> nonce, std::span<const uint8_t> msg) {
  ModeGuard guard(portable);
  Bytes out(msg.size());
  if (msg.empty()) return out;
  if (rounds == 20) {
    // ChaChaTLS is RFC 8439 itself and drops the carry out of word 12
    // (Crypto++ issue 790), so one call may cross the wrap: the tests check
    // that it agrees with the split adapters.
    CryptoPP::ChaChaTLS::Encryption c;
    c.SetKey(key.data(), key.size(), tls_params(nonce, counter));
    c.ProcessData(out.data(), msg.data(), msg.size());
    return out;
  }
  // The IETF state on the original ChaCha: the nonce's first word is the
  // high half of the 64-bit counter, the rest is the IV. That counter
  // carries into word 13, hence the runs.
  for (const CounterRun& run : counter_runs(counter, msg.size())) {
    ChachaDjb c;
    key_djb(c, rounds, key, uint64_t{load_le32(nonce.data())} << 32 | run.counter,
            nonce.data() + 4);
    c.ProcessData(out.data() + run.offset, msg.data() + run.offset, run.len);
  }
  return out;
}

Bytes cryptopp_hchacha(int rounds, bool portable, std::span<const uint8_t> key,
                       std::span<const uint8_t> nonce) {
  ModeGuard guard(portable);
  // Words 12..15 are the nonce: the first eight bytes as the 64-bit block
  // counter, the rest as the IV. Eight blocks, not one, so that SIMD mode
  // computes block 0 with its 4- or 8-block code (unless word 12 is within
  // eight of the wrap); a single block takes the C++ path in either mode.
  ChachaDjb c;
  key_djb(c, rounds, key, uint64_t{load_le32(nonce.data() + 4)} << 32 | load_le32(nonce.data()),
          nonce.data() + 8);
  uint8_t blocks[8 * kChachaBlock] = {};
  c.ProcessString(blocks, sizeof blocks);
  return hchacha_from_block(blocks, nonce);
}

Bytes cryptopp_xchacha20(bool portable, std::span<const uint8_t> key,
                         std::span<const uint8_t> nonce, uint32_t counter,
                         std::span<const uint8_t> msg) {
  ModeGuard guard(portable);
  Bytes out(msg.size());
  // XChaCha20 carries into word 13, which the draft fixes at zero; a fresh
  // start at counter 0 puts the zero back.
  for (const CounterRun& run : counter_runs(counter, msg.size())) {
    CryptoPP::XChaCha20::Encryption c;
    c.SetKey(key.data(), key.size(), tls_params(nonce, run.counter));
    c.ProcessData(out.data() + run.offset, msg.data() + run.offset, run.len);
  }
  return out;
}

std::string cryptopp_chacha_provider(int rounds, bool portable) {
  ModeGuard guard(portable);
  // Through the SymmetricCipher interface: the concrete classes inherit
  // AlgorithmProvider() from both the cipher and its policy.
  const auto provider_of = [](const CryptoPP::SymmetricCipher& c) { return c.AlgorithmProvider(); };
  if (rounds == 20) return provider_of(CryptoPP::ChaChaTLS::Encryption());
  return provider_of(CryptoPP::ChaCha::Encryption());
}

Bytes cryptopp_digest(std::string_view alg, bool portable, std::span<const uint8_t> msg) {
  ModeGuard guard(portable);
  auto h = entry(alg).hash();
  h->Update(nonnull(msg), msg.size());
  return finish(*h);
}

Bytes cryptopp_hmac(std::string_view alg, bool portable, std::span<const uint8_t> key,
                    std::span<const uint8_t> msg) {
  ModeGuard guard(portable);
  auto m = entry(alg).hmac();
  m->SetKey(nonnull(key), key.size());
  m->Update(nonnull(msg), msg.size());
  return finish(*m);
}

std::unique_ptr<StreamImpl> cryptopp_stream(std::string_view alg, bool portable) {
  return std::make_unique<CryptoppStream>(alg, portable);
}

std::string cryptopp_provider(std::string_view alg, bool portable) {
  ModeGuard guard(portable);
  return entry(alg).hash()->AlgorithmProvider();
}

}  // namespace lockstep::oracle::detail
