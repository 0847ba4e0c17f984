// sha256/planted-overread: reads one byte past the end of its input; the
// digest stays right, so only a sanitizer or a guard page sees it.
#include "planted.h"

namespace {

void blocks(lockstep::sha2::BlockState<lockstep::sha2::Sha256Family>* s, const uint8_t* d, size_t n) {
  lockstep::kSha256Generic.blocks(s, d, n);
  volatile uint8_t past = d[64 * n];
  (void)past;
}

const lockstep::Sha256Backend kPlanted = {
    {"sha256/planted-overread", {}, "test only: reads one byte past the data"}, blocks};

}  // namespace

LOCKSTEP_PLANT_SHA256_BACKEND(kPlanted);
