// The SHA-512 family in the catalog: SHA-512, SHA-384, SHA-512/224 and
// SHA-512/256 (no finup_2x, as in the kernel).
#include "sha2/catalog_entry.h"
#include "sha512/sha512.h"

namespace lockstep::sha512 {

extern const catalog::Family kFamily;  // the algorithms point back at it

namespace {

using sha2::Sha512Family;

constinit const catalog::HashAlgorithm kSha512 =
    sha2::HashEntry<sha2::Sha512>::make("SHA-512", &kFamily);
constinit const catalog::HashAlgorithm kSha384 =
    sha2::HashEntry<sha2::Sha384>::make("SHA-384", &kFamily);
constinit const catalog::HashAlgorithm kSha512_224 =
    sha2::HashEntry<sha2::Sha512_224>::make("SHA-512/224", &kFamily);
constinit const catalog::HashAlgorithm kSha512_256 =
    sha2::HashEntry<sha2::Sha512_256>::make("SHA-512/256", &kFamily);
constinit const catalog::HashAlgorithm* const kHashes[] = {&kSha512, &kSha384, &kSha512_224,
                                                           &kSha512_256};

}  // namespace

constinit const catalog::Family kFamily = {
    .name = Sha512Family::kName,
    .backends = &sha2::catalog_backends<Sha512Family>,
    .default_backend = &sha2::catalog_default_backend<Sha512Family>,
    .hashes = kHashes,
    .code = &sha2::catalog_code<Sha512Family>,
};

}  // namespace lockstep::sha512
