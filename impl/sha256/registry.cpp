// The SHA-256 family registry: every backend compiled for this target, in
// order of preference. Adding a backend is its source file and its entry
// here: an extern declaration, unless a header already has one, and its
// place in the list. impl/CMakeLists.txt picks the file up by its name.
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

// Defined only by the planted fuzz binaries (backend.h, planted_first).
extern const HashBackend<Sha256Family>* const g_sha256_planted_backend __attribute__((weak));

template <>
std::span<const HashBackend<Sha256Family>* const> registry<Sha256Family>() {
  return planted_first<kSha256Registry>(&g_sha256_planted_backend);
}

}  // namespace lockstep::sha2
