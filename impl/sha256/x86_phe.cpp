// sha256/x86-phe: the Zhaoxin/VIA PadLock Hash Engine, REP XSHA256.
//
// No compiler knows the instruction, so it is issued as bytes, as the kernel's
// drivers/crypto/padlock-sha.c does. In block mode (EAX = -1) the hardware
// compresses ECX whole 64-byte blocks from RSI into the state at RDI, adds no
// padding, and advances RSI. The state is eight native-endian words in a
// 16-byte-aligned buffer; the kernel's driver notes that the engine wants 128
// bytes there, so the buffer here has that size too.
#include <cstring>

#include "sha256/sha256.h"
#include "zeroize.h"

namespace lockstep {
namespace {

using State = sha2::BlockState<sha2::Sha256Family>;

// A bound on ECX per instruction, far below 2^31, so that the count means the
// same whether the engine reads ECX or RCX.
constexpr size_t kMaxBlocksPerInsn = size_t{1} << 24;

void blocks_phe(State* state, const uint8_t* data, size_t nblocks) {
  alignas(16) uint32_t buf[32];
  std::memcpy(buf, state->h, sizeof state->h);
  while (nblocks) {
    const size_t n = nblocks < kMaxBlocksPerInsn ? nblocks : kMaxBlocksPerInsn;
    unsigned long mode = ~0ul;  // EAX = -1: block mode, no padding
    unsigned long count = n;
    const uint8_t* src = data;
    uint32_t* dst = buf;
    // REP XSHA256. RSI advances past the data, RCX counts down and the
    // engine may use RAX, so all four are in-out operands; "memory" because
    // it reads data and writes buf behind the compiler's back.
    __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xd0"
                         : "+a"(mode), "+c"(count), "+S"(src), "+D"(dst)
                         :
                         : "memory", "cc");
    data += 64 * n;
    nblocks -= n;
  }
  std::memcpy(state->h, buf, sizeof state->h);
  zeroize(buf, sizeof buf);
}

}  // namespace

const Sha256Backend kSha256X86Phe = {
    {"sha256/x86-phe",
     {cpu::Feature::kPhe},
     "Zhaoxin/VIA PadLock REP XSHA256 in block mode; needs the PHE unit present "
     "and enabled (CPUID 0xC0000001 EDX bits 10 and 11), or the PHE trap emulator"},
    blocks_phe,
};

}  // namespace lockstep
