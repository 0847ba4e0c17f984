// The compression functions the emulator runs. They come from OpenSSL, so the
// emulator shares no code with lockstep's impl, which it exists to test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lockstep::phe::detail {

// Each compresses `n` whole blocks of `data` into the chaining words `h`
// (host order). No padding. Plain computation: safe in a signal handler.
void sha1_blocks(uint32_t h[5], const uint8_t* data, size_t n);
void sha256_blocks(uint32_t h[8], const uint8_t* data, size_t n);
void sha512_blocks(uint64_t h[8], const uint8_t* data, size_t n);

}  // namespace lockstep::phe::detail
