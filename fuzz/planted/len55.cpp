// sha256/planted-len55: a wrong digest whenever the message length is 55 mod
// 64, the length at which padding exactly fills the last block.
#include <cstring>

#include "planted.h"

namespace {

void blocks(lockstep::sha2::BlockState<lockstep::sha2::Sha256Family>* s, const uint8_t* d, size_t n) {
  lockstep::kSha256Generic.blocks(s, d, n);
  const uint8_t* last = d + 64 * (n - 1);
  uint64_t bits = 0;
  for (int i = 56; i < 64; ++i) bits = bits << 8 | last[i];
  if (last[55] == 0x80 && bits % 512 == 55 * 8) s->h[0] ^= 1;
}

const lockstep::Sha256Backend kPlanted = {
    {"sha256/planted-len55", {}, "test only: wrong when len % 64 == 55"}, blocks};

}  // namespace

LOCKSTEP_PLANT_SHA256_BACKEND(kPlanted);
