// The ChaCha registry: every backend compiled for this target, in order of
// preference. Adding a backend is its source file, one line here and one
// line in CMakeLists.txt.
#include <array>

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

std::span<const ChachaBackend* const> registry() { return kChachaRegistry; }

}  // namespace lockstep::chacha
