// The SHA-256 family registry: every backend compiled for this target, in
// order of preference. Adding a backend is its source file and its entry
// here: an extern declaration, unless a header already has one, and its
// place in the list. impl/CMakeLists.txt picks the file up by its name.
#include <array>
#include <vector>

#include "sha2/module_backends.h"
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

// Defined only by the planted fuzz binaries (backend.h, assemble_registry).
extern const HashBackend<Sha256Family>* const g_sha256_planted_backend __attribute__((weak));

template <>
std::span<const HashBackend<Sha256Family>* const> registry<Sha256Family>() {
  using B = HashBackend<Sha256Family>;
  static const std::vector<const B*> all =
      assemble_registry<B>(kSha256Registry, &g_sha256_planted_backend, module_backends<Sha256Family>());
  return all;
}

}  // namespace lockstep::sha2
