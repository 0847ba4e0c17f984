// The expected answer for a message, where no vector file has one: the
// oracle (Crypto++, portable mode) in native builds, so that a bug in the
// generic backend shows up in the generic backend's tests only; the generic
// backend in cross builds, which link no oracle.
#pragma once

#include <span>

#include "bytes.h"
#include "catalog.h"

namespace lockstep::conformance {

// oracle_for says whether the oracle can answer for `alg` in this build.
bool oracle_for(const catalog::HashAlgorithm& alg);

// generic_of returns the generic backend of `alg`'s family (registries end
// with it).
const Backend* generic_of(const catalog::HashAlgorithm& alg);

Bytes expected_digest(const catalog::HashAlgorithm& alg, std::span<const uint8_t> msg);
Bytes expected_hmac(const catalog::HashAlgorithm& alg, std::span<const uint8_t> key,
                    std::span<const uint8_t> msg);

// ChaCha: msg XOR the keystream of (key, counter, nonce), the counter
// wrapping at 2^32 as lockstep's semantics say; XChaCha20 (a 24-byte nonce)
// through the oracle's XChaCha20.
bool oracle_for(const catalog::CipherAlgorithm& alg);
Bytes expected_chacha(const catalog::CipherAlgorithm& alg, std::span<const uint8_t> key,
                      uint32_t counter, std::span<const uint8_t> nonce,
                      std::span<const uint8_t> msg);

// expected_chacha_carrying is expected_chacha for a backend that declared
// OpenSSL EVP's counter: the same keystream up to block 2^32 - 1, then that
// of counter 0 with word 13 one higher (the generic backend, from that
// state). One wrap at most: messages stay far below 256 GiB.
Bytes expected_chacha_carrying(const catalog::CipherAlgorithm& alg, std::span<const uint8_t> key,
                               uint32_t counter, std::span<const uint8_t> nonce,
                               std::span<const uint8_t> msg);

// expected_xchacha is XChaCha with `rounds` rounds (20 or 12, the kernel's
// xchacha20 and xchacha12) from block `counter`: ChaCha under the HChaCha
// subkey of (key, nonce24[0..16]) with the nonce 00000000 ||
// nonce24[16..24], each part from the oracle where this build has one
// (Crypto++: its ChaCha block gives HChaCha), from the generic backend
// otherwise.
Bytes expected_xchacha(int rounds, std::span<const uint8_t> key, std::span<const uint8_t> nonce24,
                       uint32_t counter, std::span<const uint8_t> msg);

// wraps_past says whether a call of `len` bytes from block `counter`
// reaches block 2^32, where the two counter semantics part.
bool wraps_past(uint32_t counter, size_t len);

}  // namespace lockstep::conformance
