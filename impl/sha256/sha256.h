// SHA-256 and SHA-224: the public names of the front end and its backends.
#pragma once

#include "sha2/sha2.h"

namespace lockstep {

namespace sha2 {
template <>
std::span<const HashBackend<Sha256Family>* const> registry<Sha256Family>();
}  // namespace sha2

using Sha256 = sha2::Hash<sha2::Sha256>;
using Sha224 = sha2::Hash<sha2::Sha224>;
using HmacSha256 = sha2::Hmac<sha2::Sha256>;
using HmacSha224 = sha2::Hmac<sha2::Sha224>;
using Sha256Backend = sha2::HashBackend<sha2::Sha256Family>;
using Sha256Ctx = sha2::Ctx<sha2::Sha256Family>;

namespace sha256 {
// Every SHA-256-family backend compiled for this target, best first.
inline std::span<const Sha256Backend* const> registry() {
  return sha2::registry<sha2::Sha256Family>();
}
}  // namespace sha256

// Backend descriptors, one per source file. Only those of the target
// architecture are defined.
extern const Sha256Backend kSha256Generic;
extern const Sha256Backend kSha256X86Avx2;
extern const Sha256Backend kSha256X86Shani;
extern const Sha256Backend kSha256X86Phe;
extern const Sha256Backend kSha256Arm64Ce;

}  // namespace lockstep
