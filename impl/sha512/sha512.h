// SHA-512, SHA-384, SHA-512/224 and SHA-512/256: the public names of the
// front end and its backends.
#pragma once

#include "sha2/sha2.h"

namespace lockstep {

namespace sha2 {
template <>
std::span<const HashBackend<Sha512Family>* const> registry<Sha512Family>();
}  // namespace sha2

using Sha512 = sha2::Hash<sha2::Sha512>;
using Sha384 = sha2::Hash<sha2::Sha384>;
using Sha512_224 = sha2::Hash<sha2::Sha512_224>;
using Sha512_256 = sha2::Hash<sha2::Sha512_256>;
using HmacSha512 = sha2::Hmac<sha2::Sha512>;
using HmacSha384 = sha2::Hmac<sha2::Sha384>;
using HmacSha512_224 = sha2::Hmac<sha2::Sha512_224>;
using HmacSha512_256 = sha2::Hmac<sha2::Sha512_256>;
using Sha512Backend = sha2::HashBackend<sha2::Sha512Family>;
using Sha512Ctx = sha2::Ctx<sha2::Sha512Family>;

namespace sha512 {
// Every SHA-512-family backend compiled for this target, best first.
inline std::span<const Sha512Backend* const> registry() {
  return sha2::registry<sha2::Sha512Family>();
}
}  // namespace sha512

// Backend descriptors, one per source file. Only those of the target
// architecture are defined.
extern const Sha512Backend kSha512Generic;
extern const Sha512Backend kSha512X86Avx2;
extern const Sha512Backend kSha512X86Avx512vl;
extern const Sha512Backend kSha512X86Sha512Ext;
extern const Sha512Backend kSha512X86Phe;
extern const Sha512Backend kSha512Arm64Ce;

}  // namespace lockstep
