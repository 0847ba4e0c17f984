// The SHA-256 family registry: every backend compiled for this target, in
// order of preference. Adding a backend is its source file, one line here
// and one line in CMakeLists.txt.
#include <algorithm>
#include <array>

#include "sha256/sha256.h"

namespace lockstep::sha2 {
namespace {

constexpr std::array kSha256Registry = std::to_array<const HashBackend<Sha256Family>*>({
#if defined(__x86_64__)
    &kSha256X86Shani,  // dedicated round instructions, 2-way finup_2x
    &kSha256X86Phe,    // the hash engine beats any software schedule
    &kSha256X86Avx2,   // software rounds, vector schedule
#endif
#if defined(__aarch64__)
    &kSha256Arm64Ce,  // Crypto Extension rounds, 2-way finup_2x
#endif
    &kSha256Generic,  // last: needs nothing
});

}  // namespace

// A test binary may link in one extra backend, listed first: the fuzz
// harnesses' deliberately broken backends that prove the checks have teeth
// (fuzz/planted). Nothing else defines it.
extern const HashBackend<Sha256Family>* const g_sha256_planted_backend __attribute__((weak));

template <>
std::span<const HashBackend<Sha256Family>* const> registry<Sha256Family>() {
  static const auto with_planted = [] {
    std::array<const HashBackend<Sha256Family>*, kSha256Registry.size() + 1> all{};
    all[0] = &g_sha256_planted_backend ? g_sha256_planted_backend : nullptr;
    std::copy(kSha256Registry.begin(), kSha256Registry.end(), all.begin() + 1);
    return all;
  }();
  if (with_planted[0]) return with_planted;
  return kSha256Registry;
}

}  // namespace lockstep::sha2
