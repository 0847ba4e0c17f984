// The SHA-256 family registry: every backend compiled for this target, in
// order of preference. Adding a backend is its source file, one line here
// and one line in CMakeLists.txt.
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
    &kSha256Generic,  // last: needs nothing
});

}  // namespace

template <>
std::span<const HashBackend<Sha256Family>* const> registry<Sha256Family>() {
  return kSha256Registry;
}

}  // namespace lockstep::sha2
