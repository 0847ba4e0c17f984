// The SHA-512 family registry: every backend compiled for this target, in
// order of preference. Adding a backend is its source file and its entry
// here: an extern declaration, unless a header already has one, and its
// place in the list. impl/CMakeLists.txt picks the file up by its name.
#include <array>
#include <vector>

#include "sha2/module_backends.h"
#include "sha512/sha512.h"

namespace lockstep::sha2 {
namespace {

constexpr std::array kSha512Registry = std::to_array<const HashBackend<Sha512Family>*>({
#if defined(__x86_64__)
    &kSha512X86Sha512Ext,  // dedicated round instructions (Arrow Lake, Lunar Lake)
    &kSha512X86Phe,        // the hash engine beats any software schedule
    &kSha512X86Avx512vl,   // the same rounds, fewer schedule instructions
    &kSha512X86Avx2,       // software rounds, vector schedule
#endif
#if defined(__aarch64__)
    &kSha512Arm64Ce,  // ARMv8.2 SHA512 rounds; many arm64 cores lack them
#endif
    &kSha512Generic,  // last: needs nothing
});

}  // namespace

// Defined only by the planted fuzz binaries (backend.h, assemble_registry).
extern const HashBackend<Sha512Family>* const g_sha512_planted_backend __attribute__((weak));

template <>
std::span<const HashBackend<Sha512Family>* const> registry<Sha512Family>() {
  using B = HashBackend<Sha512Family>;
  static const std::vector<const B*> all =
      assemble_registry<B>(kSha512Registry, &g_sha512_planted_backend, module_backends<Sha512Family>());
  return all;
}

}  // namespace lockstep::sha2
