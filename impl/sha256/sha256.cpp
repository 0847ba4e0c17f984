// The SHA-256 family front end: instantiations and finup_2x.
#include "sha256/sha256.h"

#include <cstring>

#include "sha2/frontend.h"

namespace lockstep::sha2 {

template struct Hash<Sha256>;
template struct Hash<Sha224>;
template struct Hmac<Sha256>;
template struct Hmac<Sha224>;
template const HashBackend<Sha256Family>* default_backend<Sha256Family>();

void finup_2x(const Ctx<Sha256Family>* ctx, const uint8_t* data1, const uint8_t* data2,
              size_t len, uint8_t out1[32], uint8_t out2[32],
              const HashBackend<Sha256Family>* backend) {
  Ctx<Sha256Family> fresh;
  if (!ctx) {
    Hash<Sha256>::init(fresh, backend);
    ctx = &fresh;
  }
  const HashBackend<Sha256Family>* b = ctx->backend;
  if (b->finup_2x) {
    b->count_call();
    if (invoke(*b, "finup_2x", b->finup_2x, ctx, data1, data2, len, out1, out2)) return;
  }
  // Sequential fallback: the kernel's stub for arches without a 2-way path.
  // Both digests are stored last, so outputs may overlap either input.
  uint8_t md1[32], md2[32];
  Ctx<Sha256Family> copy = *ctx;
  Hash<Sha256>::update(copy, data1, len);
  Hash<Sha256>::final(copy, md1);
  copy = *ctx;
  Hash<Sha256>::update(copy, data2, len);
  Hash<Sha256>::final(copy, md2);
  std::memcpy(out1, md1, sizeof md1);
  std::memcpy(out2, md2, sizeof md2);
}

}  // namespace lockstep::sha2
