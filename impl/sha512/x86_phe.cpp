// sha512/x86-phe: the Zhaoxin PHE2 engine, REP XSHA512 (F3 0F A6 E0).
//
// As sha256/x86-phe, issued as bytes in block mode (EAX = -1): ECX whole
// 128-byte blocks from RSI into the eight 64-bit native-endian state words at
// RDI, no padding. SHA-384 is the same instruction started from SHA-384's IV;
// the front end supplies the IV, so one block function serves both.
#include <cstring>

#include "sha512/sha512.h"
#include "zeroize.h"

namespace lockstep {
namespace {

using State = sha2::BlockState<sha2::Sha512Family>;

// As for XSHA256: a bound on ECX far below 2^31, whatever width the engine reads.
constexpr size_t kMaxBlocksPerInsn = size_t{1} << 24;

void blocks_phe(State* state, const uint8_t* data, size_t nblocks) {
  alignas(16) uint64_t buf[16];  // the state plus room the engine may scribble on
  std::memcpy(buf, state->h, sizeof state->h);
  while (nblocks) {
    const size_t n = nblocks < kMaxBlocksPerInsn ? nblocks : kMaxBlocksPerInsn;
    unsigned long mode = ~0ul;
    unsigned long count = n;
    const uint8_t* src = data;
    uint64_t* dst = buf;
    __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xe0"
                         : "+a"(mode), "+c"(count), "+S"(src), "+D"(dst)
                         :
                         : "memory", "cc");
    data += 128 * n;
    nblocks -= n;
  }
  std::memcpy(state->h, buf, sizeof state->h);
  zeroize(buf, sizeof buf);
}

}  // namespace

const Sha512Backend kSha512X86Phe = {
    {"sha512/x86-phe",
     {cpu::Feature::kPhe2},
     "Zhaoxin PHE2 REP XSHA512 in block mode; needs the PHE2 unit present and "
     "enabled (CPUID 0xC0000001 EDX bits 25 and 26), or the PHE trap emulator"},
    blocks_phe,
};

}  // namespace lockstep
