// The Crypto++ adapter, in two modes. Crypto++ picks its code path at each
// call from global CPU feature flags (cpu.h), so portable mode clears them
// for the duration of one call and restores them afterwards. Every Crypto++
// call of this adapter, in either mode, holds one mutex: otherwise a thread
// in SIMD mode could run while another has the flags cleared. (Crypto++ used
// elsewhere in the process, outside this adapter, is not protected.)
#include <cryptopp/cpu.h>
#include <cryptopp/hmac.h>
#include <cryptopp/sha.h>

#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

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

#define LOCKSTEP_CRYPTOPP_ENTRY(name, cls, evp) \
  Entry{name, &make_hash<CryptoPP::cls>, &make_hmac<CryptoPP::cls>},
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

}  // namespace

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
