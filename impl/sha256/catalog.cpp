// The SHA-256 family in the catalog: SHA-256 (with finup_2x) and SHA-224.
#include "sha2/catalog_entry.h"
#include "sha256/sha256.h"

namespace lockstep::sha256 {

extern const catalog::Family kFamily;  // the algorithms point back at it

namespace {

using sha2::Sha256Family;

void finup_2x(const void* c, const uint8_t* d1, const uint8_t* d2, size_t n, uint8_t* o1,
              uint8_t* o2, const Backend* b) {
  sha2::finup_2x(static_cast<const Sha256Ctx*>(c), d1, d2, n, o1, o2,
                 sha2::typed<Sha256Family>(b));
}

bool finup_2x_is_optimized(const Backend* b) {
  const auto* t = sha2::typed<Sha256Family>(b);
  return sha2::finup_2x_is_optimized(t ? t : sha2::default_backend<Sha256Family>());
}

constexpr catalog::HashAlgorithm with_finup_2x(catalog::HashAlgorithm a) {
  a.finup_2x = &finup_2x;
  a.finup_2x_is_optimized = &finup_2x_is_optimized;
  return a;
}

constinit const catalog::HashAlgorithm kSha256 =
    with_finup_2x(sha2::HashEntry<sha2::Sha256>::make("SHA-256", &kFamily));
constinit const catalog::HashAlgorithm kSha224 =
    sha2::HashEntry<sha2::Sha224>::make("SHA-224", &kFamily);
constinit const catalog::HashAlgorithm* const kHashes[] = {&kSha256, &kSha224};

}  // namespace

constinit const catalog::Family kFamily = {
    .name = Sha256Family::kName,
    .backends = &sha2::catalog_backends<Sha256Family>,
    .default_backend = &sha2::catalog_default_backend<Sha256Family>,
    .hashes = kHashes,
    .code = &sha2::catalog_code<Sha256Family>,
};

}  // namespace lockstep::sha256
