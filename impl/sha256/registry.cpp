// The SHA-256 family registry: every backend compiled for this target, in
// order of preference. Adding a backend is its source file, one line here
// and one line in CMakeLists.txt.
#include <array>

#include "sha256/sha256.h"

namespace lockstep::sha2 {
namespace {

constexpr std::array kSha256Registry = std::to_array<const HashBackend<Sha256Family>*>({
    &kSha256Generic,  // last: needs nothing
});

}  // namespace

template <>
std::span<const HashBackend<Sha256Family>* const> registry<Sha256Family>() {
  return kSha256Registry;
}

}  // namespace lockstep::sha2
