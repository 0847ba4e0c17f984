// ChaCha20 and ChaCha12 (RFC 8439 layout), HChaCha20 and XChaCha20, after
// the Linux lib/crypto shape (include/crypto/chacha.h).
//
// The state is sixteen 32-bit words: "expand 32-byte k", the 256-bit key,
// the 32-bit block counter in word 12 and the 96-bit nonce in words 13..15.
//
// Counter semantics, the same as RFC 8439, the kernel and Crypto++'s
// ChaChaTLS: chacha_crypt() consumes one counter value per 64-byte block, a
// partial final block included, and the counter wraps from 2^32 - 1 to 0
// without carrying into word 13. (OpenSSL 3.0's EVP_chacha20 carries into
// word 13 instead; the oracle adapter hides that, lockstep never follows it.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "backend.h"
#include "lockstep/module.h"

namespace lockstep::chacha {

inline constexpr size_t kBlockSize = 64;
inline constexpr size_t kKeySize = 32;
inline constexpr size_t kIvSize = 16;       // counter (LE32) + 96-bit nonce
inline constexpr size_t kNonceSize = 12;    // RFC 8439
inline constexpr size_t kXNonceSize = 24;   // XChaCha20
inline constexpr size_t kHNonceSize = 16;   // HChaCha20's input

// State is the kernel's struct chacha_state, as the module interface has it.
using State = lockstep_chacha_state;

// Counter is how a backend moves past block counter 2^32 - 1: lockstep's own
// wrap (RFC 8439), or, declared by a module, OpenSSL EVP's carry.
enum class Counter { kWrap32 = LOCKSTEP_COUNTER_WRAP32, kCarry64 = LOCKSTEP_COUNTER_CARRY64 };

// Overlap is where crypt may write dst against src: lockstep's own rule
// (dst == src, or below it), or, declared by a module, in place or apart
// only (libsodium, OpenSSL, Mbed TLS), or apart only.
enum class Overlap {
  kAny = LOCKSTEP_OVERLAP_ANY,
  kInPlace = LOCKSTEP_OVERLAP_INPLACE,
  kNone = LOCKSTEP_OVERLAP_NONE,
};

// ChachaBackend is a ChaCha backend descriptor.
struct ChachaBackend : Backend {
  // crypt XORs `len` bytes of keystream into `src`, writing `dst`, starting
  // at the block counter in state->x[12], and advances that counter by
  // ceil(len / 64), wrapping at 2^32. `rounds` is 20 or 12 (any even number
  // >= 2 must work). `dst` may equal `src`, may lie before it with overlap
  // (dst < src), or be disjoint; dst > src with overlap is not allowed. No
  // byte outside [src, src + len) is read and none outside [dst, dst + len)
  // written. `len` may be 0. (A module's crypt: dst as `overlap` says.)
  void (*crypt)(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds);

  // What a module declared; lockstep's own backends wrap, take any rounds
  // and any overlap above.
  Counter counter = Counter::kWrap32;
  unsigned rounds = 0;  // LOCKSTEP_ROUNDS_* bits crypt supports; 0: all
  Overlap overlap = Overlap::kAny;
  // A module's own hchacha_block(), checked against the front end's.
  void (*hchacha)(const State* state, uint32_t out[8], int rounds) = nullptr;

  // False for every r where there is no crypt: a module's whole-message
  // XChaCha driver (Backend::cipher_driver) is reached through that only.
  bool supports_rounds(int r) const {
    return crypt != nullptr && (rounds == 0 || (r < 32 && (rounds >> r) & 1u));
  }
};

// registry lists every ChaCha backend compiled for this target, best first
// and generic last; default_backend() is the best usable one.
std::span<const ChachaBackend* const> registry();
const ChachaBackend* default_backend();
// module_backends: those of loaded modules (module_backends.cpp).
std::span<const ChachaBackend* const> module_backends();

// Backend descriptors, one per source file; only those of the target
// architecture are defined.
extern const ChachaBackend kChachaGeneric;
extern const ChachaBackend kChachaX86Ssse3;
extern const ChachaBackend kChachaX86Avx2;
extern const ChachaBackend kChachaX86Avx512vl;
extern const ChachaBackend kChachaX86Avx512f;
extern const ChachaBackend kChachaArm64Neon;

// init sets up `state` from a 32-byte key and the 16-byte IV (a little-endian
// 32-bit counter followed by the 12-byte nonce), as the kernel's chacha_init.
void init(State& state, const uint8_t key[kKeySize], const uint8_t iv[kIvSize]);

// init_rfc8439 is init() with the counter and nonce given apart.
void init_rfc8439(State& state, const uint8_t key[kKeySize], uint32_t counter,
                  const uint8_t nonce[kNonceSize]);

// crypt is the kernel's chacha_crypt(): see ChachaBackend::crypt. A null
// backend means the default one.
void crypt(State& state, uint8_t* dst, const uint8_t* src, size_t len, int rounds,
           const ChachaBackend* backend = nullptr);

// permute applies `rounds` ChaCha rounds to `x` in place, without the final
// feed-forward addition: the core shared by the generic block function and
// HChaCha.
void permute(uint32_t x[16], int rounds);

// hchacha is the kernel's hchacha_block(): the permuted words 0..3 and
// 12..15 of `state`, which holds the key and the 16-byte HChaCha nonce.
void hchacha(const State& state, uint32_t out[8], int rounds);

// hchacha20 derives XChaCha20's 32-byte subkey from a key and a 16-byte
// nonce (draft-irtf-cfrg-xchacha, 2.2). With `own`, a backend that has an
// hchacha of its own (a module's), that one does the permutation.
void hchacha20(const uint8_t key[kKeySize], const uint8_t nonce[kHNonceSize],
               uint8_t subkey[kKeySize], const ChachaBackend* own = nullptr);

// xchacha20 encrypts or decrypts with XChaCha20 (draft-irtf-cfrg-xchacha,
// 2.3): HChaCha20 over the key and the first 16 nonce bytes gives the
// subkey; ChaCha20 then runs with nonce 00000000 || nonce[16..24], starting
// at block `counter`.
void xchacha20(const uint8_t key[kKeySize], const uint8_t nonce[kXNonceSize], uint32_t counter,
               uint8_t* dst, const uint8_t* src, size_t len,
               const ChachaBackend* backend = nullptr);

}  // namespace lockstep::chacha
