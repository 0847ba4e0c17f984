// The ChaCha registry: every backend compiled for this target, in order of
// preference. Adding a backend is its source file and its entry here: an
// extern declaration, unless a header already has one, and its place in the
// list. impl/CMakeLists.txt picks the file up by its name.
#include <array>
#include <vector>

#include "chacha/chacha.h"

namespace lockstep::chacha {
namespace {

constexpr std::array kChachaRegistry = std::to_array<const ChachaBackend*>({
#if defined(__x86_64__)
    &kChachaX86Avx512f,   // 16 blocks in zmm registers
    &kChachaX86Avx512vl,  // 8 blocks in ymm registers with AVX-512 rotates
    &kChachaX86Avx2,      // 8 blocks
    &kChachaX86Ssse3,     // 4 blocks, and 1 for short tails
#endif
#if defined(__aarch64__)
    &kChachaArm64Neon,  // 4 blocks
#endif
    &kChachaGeneric,  // last: needs nothing
});

}  // namespace

// Defined only by the planted fuzz binaries (backend.h, assemble_registry).
extern const ChachaBackend* const g_chacha_planted_backend __attribute__((weak));

std::span<const ChachaBackend* const> registry() {
  static const std::vector<const ChachaBackend*> all =
      assemble_registry<ChachaBackend>(kChachaRegistry, &g_chacha_planted_backend, module_backends());
  return all;
}

}  // namespace lockstep::chacha
