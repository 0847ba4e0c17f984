// How a ChaCha keystream test of an upstream file lands on lockstep's ChaCha
// (not part of the importer's interface). lockstep has RFC 8439's layout:
// word 12 the 32-bit block counter, wrapping without carry, words 13..15 the
// 96-bit nonce. Upstream files also use Bernstein's original layout, where
// words 12..13 are a 64-bit counter and words 14..15 an 8-byte nonce, and
// libsodium's XChaCha20, which is that layout under the HChaCha20 subkey.
//
// While a message keeps the high counter word fixed, the original layout is
// the RFC 8439 one with the high word as the first nonce word: an 8-byte
// nonce N at 64-bit block c is nonce LE32(c >> 32) || N at block c mod 2^32.
// For XChaCha20 lockstep's first inner nonce word is zero, so only c < 2^32
// maps. A message that carries from word 12 into word 13 has no image: it is
// skipped with its own reason, never run against the wrapping counter.
#pragma once

#include <cstdint>
#include <string>

#include "import.h"

namespace lockstep::vectors::import::detail {

enum class Layout {
  kIetf,      // RFC 8439: 12-byte nonce (24 for XChaCha20), 32-bit counter
  kOriginal,  // Bernstein: 8-byte nonce (24 for XChaCha20), 64-bit counter
};

// A keystream test as upstream states it: `in` XOR the keystream from byte
// `skip` of block `block` on is `out`.
struct Keystream {
  std::string cipher;  // catalog name: "chacha20", "chacha12" or "xchacha20"
  Layout layout = Layout::kIetf;
  Bytes key, nonce;    // the nonce as upstream gives it
  uint64_t block = 0;  // the first block's counter (64 bits in the original layout)
  uint64_t skip = 0;   // bytes of the first block before `in` starts, below 64
  Bytes in, out;
};

// ChaCha20-Poly1305's tag, which AEAD records append to the ciphertext.
inline constexpr size_t kPoly1305TagSize = 16;

// Skip reasons, shared so that every reader counts alike.
inline constexpr const char* kBeyondIetfCounter =
    "keystream beyond block 2^32 - 1 (lockstep's counter is 32 bits)";
inline constexpr const char* kCarriesIntoWord13 =
    "64-bit counter carries from word 12 into word 13 within the message (original ChaCha "
    "layout; lockstep's 32-bit counter wraps)";
inline constexpr const char* kXchachaHighCounter =
    "XChaCha20 with a 64-bit counter at or beyond 2^32 (lockstep's XChaCha20 holds the first "
    "inner nonce word at zero)";

// wraps32 says whether the stream passes block 2^32 - 1 of a 32-bit counter
// that starts at the low word of `k.block`.
bool wraps32(const Keystream& k);

// place turns `k` into c's StreamCase on lockstep's layout and sets c's
// algorithm to k.cipher, or sets only c.skip, to why it has no image there.
// The key and nonce sizes must already be lockstep's (32; 12, 8 or 24).
void place(Keystream k, Case& c);

}  // namespace lockstep::vectors::import::detail
