// The SHA-512 family front end: the instantiations. SHA-512 has no finup_2x
// (the kernel has none either).
#include "sha512/sha512.h"

#include "sha2/frontend.h"

namespace lockstep::sha2 {

template struct Hash<Sha512>;
template struct Hash<Sha384>;
template struct Hash<Sha512_224>;
template struct Hash<Sha512_256>;
template struct Hmac<Sha512>;
template struct Hmac<Sha384>;
template struct Hmac<Sha512_224>;
template struct Hmac<Sha512_256>;
template const HashBackend<Sha512Family>* default_backend<Sha512Family>();

}  // namespace lockstep::sha2
