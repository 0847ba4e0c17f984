// sha256/planted-split3: mishandles one split pattern, an update that hands
// the backend exactly three whole blocks at once (the last block is skipped).
#include "planted.h"

namespace {

void blocks(lockstep::sha2::BlockState<lockstep::sha2::Sha256Family>* s, const uint8_t* d, size_t n) {
  lockstep::kSha256Generic.blocks(s, d, n == 3 ? 2 : n);
}

const lockstep::Sha256Backend kPlanted = {
    {"sha256/planted-split3", {}, "test only: drops a block when called with 3"}, blocks};

}  // namespace

LOCKSTEP_PLANT_SHA256_BACKEND(kPlanted);
