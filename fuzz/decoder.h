// The one decoder: turns fuzz bytes into a Program. Every harness of every
// algorithm uses it; algorithms add parameters here, not decoders of their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "program.h"

namespace lockstep::fuzz {

struct HashChoices {
  std::span<const std::string_view> algorithms;  // the harness's algorithms
  bool finup_2x = false;                         // offer Operation::kFinup2x
  size_t block_size = 64;                        // for favoured split sizes
};

// decode_hash decodes a digest/HMAC/finup_2x program. Any input decodes to
// some program (an empty input is the empty message).
Program decode_hash(const uint8_t* data, size_t size, const HashChoices& choices);

struct CipherChoices {
  std::span<const std::string_view> algorithms;  // "chacha20", "chacha12", "xchacha20"
  std::span<const size_t> nonce_sizes;           // each algorithm's; empty: all 12
};

// decode_cipher decodes a ChaCha program: key, nonce, a counter biased
// toward the 2^32 wrap, calls of whole blocks (the last may be partial),
// offsets and overlap. Any input decodes to some program.
Program decode_cipher(const uint8_t* data, size_t size, const CipherChoices& choices);

}  // namespace lockstep::fuzz
