// The block loop of the PadLock hash engines, REP XSHA256 and REP XSHA512,
// which differ only in the ModR/M byte of the opcode and the word size.
//
// No compiler knows the instructions, so they are issued as bytes, as the
// kernel's drivers/crypto/padlock-sha.c does. In block mode (EAX = -1) the
// engine compresses ECX whole blocks from RSI into the native-endian state
// at RDI, adds no padding, and advances RSI. The state buffer is 16-byte
// aligned and 128 bytes long: the kernel's driver notes that the engine
// wants that much room.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sha2/sha2.h"
#include "zeroize.h"

namespace lockstep::sha2 {

// A bound on ECX per instruction, far below 2^31, so that the count means the
// same whether the engine reads ECX or RCX.
inline constexpr size_t kPheMaxBlocksPerInsn = size_t{1} << 24;

// phe_blocks is a HashBackend::blocks for the engine whose REP XSHA opcode is
// F3 0F A6 `ModRM`.
template <class F, uint8_t ModRM>
void phe_blocks(BlockState<F>* state, const uint8_t* data, size_t nblocks) {
  alignas(16) typename F::Word buf[128 / sizeof(typename F::Word)];
  std::memcpy(buf, state->h, sizeof state->h);
  while (nblocks) {
    const size_t n = nblocks < kPheMaxBlocksPerInsn ? nblocks : kPheMaxBlocksPerInsn;
    unsigned long mode = ~0ul;  // EAX = -1: block mode, no padding
    unsigned long count = n;
    const uint8_t* src = data;
    typename F::Word* dst = buf;
    // RSI advances past the data, RCX counts down and the engine may use
    // RAX, so all four are in-out operands; "memory" because it reads data
    // and writes buf behind the compiler's back. %c prints the ModR/M byte
    // as a bare number, so the bytes are those of a literal.
    __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, %c[modrm]"
                         : "+a"(mode), "+c"(count), "+S"(src), "+D"(dst)
                         : [modrm] "i"(ModRM)
                         : "memory", "cc");
    data += F::kBlockSize * n;
    nblocks -= n;
  }
  std::memcpy(state->h, buf, sizeof state->h);
  zeroize(buf, sizeof buf);
}

}  // namespace lockstep::sha2
