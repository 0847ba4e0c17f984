// A fuzz program: what one fuzz input means, decoded once by the shared
// decoder and executed against every backend. Printable, so a mismatch
// report tells a person exactly what to reproduce.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep::fuzz {

using Bytes = std::vector<uint8_t>;

// Where the output goes relative to the input.
enum class Overlap {
  kSeparate,       // its own buffer
  kOverInputStart, // output written over the first bytes of the input
  kOverInputEnd,   // output written over the last bytes of the input
  // For ciphers (whose output is as long as the input), kOverInputStart is
  // dst = src - (out_offset % 65), 0 meaning in place, and kOverInputEnd is
  // exactly in place: dst above src with overlap is not allowed.
};

enum class Operation {
  kDigest,   // init / update* / final, and the one-shot digest
  kHmac,     // prepared key and raw key, incremental and one-shot
  kFinup2x,  // a shared prefix, then two messages finished together
  kCrypt,    // ChaCha: key, nonce and counter; the message in calls of `splits`
};

struct Program {
  std::string algorithm;  // catalog name: "sha256", "sha224", ...
  Operation op = Operation::kDigest;
  Bytes message;             // digest/hmac: the message; finup_2x: prefix || data1
  std::vector<size_t> splits;  // update (crypt: call) sizes, in order; the rest goes last
  size_t in_offset = 0;      // 0..127: bytes past an aligned address
  size_t out_offset = 0;     // 0..127
  size_t ctx_offset = 0;     // 0..120, a multiple of 8 (contexts are 8-byte aligned)
  Overlap overlap = Overlap::kSeparate;
  Bytes key;                 // hmac; crypt: 32 bytes
  Bytes nonce;               // crypt: 12 bytes
  uint32_t counter = 0;      // crypt: the first block counter
  size_t prefix_len = 0;     // finup_2x: message[:prefix_len] is the shared prefix
  Bytes data2;               // finup_2x: the second message, as long as data1

  // describe renders the program on a few lines, for mismatch reports and
  // for `fuzz_replay --print`.
  std::string describe() const;
};

std::string_view operation_name(Operation op);
std::string_view overlap_name(Overlap o);

}  // namespace lockstep::fuzz
