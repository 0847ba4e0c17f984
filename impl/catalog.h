// The catalog: a runtime view of every algorithm and every backend, for the
// code that must treat them all alike (conformance suites, fuzz harnesses,
// the vector runner, `lockstep list/hash/run`). Each entry is generated from
// the typed front end, so there is one implementation behind both views.
// Nothing outside a family's folder names the family: code that needs the
// list asks families().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backend.h"

namespace lockstep::catalog {

struct HashAlgorithm;
struct CipherAlgorithm;
struct SubkeyAlgorithm;

// Family is a set of algorithms that share backends ("sha256" serves SHA-256,
// SHA-224 and their HMACs). Each family folder of impl/ defines its own, as
// <family>::kFamily in its catalog.cpp; impl/CMakeLists.txt lists families.
struct Family {
  std::string_view name;
  std::span<const Backend* const> (*backends)();  // best first, generic last
  const Backend* (*default_backend)();
  std::span<const HashAlgorithm* const> hashes = {};
  std::span<const CipherAlgorithm* const> ciphers = {};
  std::span<const SubkeyAlgorithm* const> subkeys = {};
  // The functions a backend of this family supplies (blocks, finup_2x,
  // crypt, ...), as the addresses its code starts at: the isa check
  // disassembles from them without running them.
  std::vector<const void*> (*code)(const Backend* b) = nullptr;
};

// HashAlgorithm is a hash and its HMAC, through type-erased contexts of
// `ctx_size` / `hmac_ctx_size` bytes aligned to `ctx_align` (at most 8). Every function
// taking a backend accepts nullptr for the default and aborts on a backend of
// another family.
struct HashAlgorithm {
  std::string_view name;     // "sha256"
  std::string_view display;  // "SHA-256"
  const Family* family;
  size_t digest_size, block_size;
  size_t ctx_size, ctx_align, hmac_ctx_size, hmac_key_size;
  size_t bytecount_offset;  // of the 64-bit byte count in the context

  void (*init)(void* ctx, const Backend* b);
  void (*update)(void* ctx, const uint8_t* data, size_t len);
  void (*final)(void* ctx, uint8_t* out);
  void (*digest)(const uint8_t* data, size_t len, uint8_t* out, const Backend* b);

  void (*hmac_prepare_key)(void* key, const uint8_t* raw, size_t raw_len, const Backend* b);
  void (*hmac_init)(void* ctx, const void* key, const Backend* b);
  void (*hmac_init_usingrawkey)(void* ctx, const uint8_t* raw, size_t raw_len, const Backend* b);
  void (*hmac_update)(void* ctx, const uint8_t* data, size_t len);
  void (*hmac_final)(void* ctx, uint8_t* out);
  void (*hmac)(const uint8_t* raw, size_t raw_len, const uint8_t* data, size_t len,
               uint8_t* out, const Backend* b);

  // finup_2x over a context of this algorithm (null: the empty prefix);
  // null where the algorithm has none (only SHA-256 has it).
  void (*finup_2x)(const void* ctx, const uint8_t* data1, const uint8_t* data2, size_t len,
                   uint8_t* out1, uint8_t* out2, const Backend* b);
  // Whether `b` has a 2-way finup_2x of its own.
  bool (*finup_2x_is_optimized)(const Backend* b);
};

// CipherAlgorithm is a ChaCha variant: the RFC 8439 layout with `rounds`
// rounds, or XChaCha20, which derives its key and its 12-byte nonce from a
// 24-byte one and then is ChaCha20 (chacha/chacha.h has the semantics).
struct CipherAlgorithm {
  std::string_view name;     // "chacha20"
  std::string_view display;  // "ChaCha20"
  const Family* family;
  int rounds;
  size_t nonce_size;  // 12; 24 for XChaCha20

  // init sets up the sixteen state words from a 32-byte key, the block
  // counter and a nonce of nonce_size bytes.
  void (*init)(uint32_t state[16], const uint8_t* key, uint32_t counter, const uint8_t* nonce);
  // crypt XORs the keystream into src, writing dst, and advances the counter
  // in state[12] by the blocks consumed (a partial block counts as one).
  void (*crypt)(uint32_t state[16], uint8_t* dst, const uint8_t* src, size_t len,
                const Backend* b);
  // unsupported says why `b` cannot run this algorithm, "" when it can: a
  // module backend may declare only some round counts.
  std::string (*unsupported)(const Backend* b);
  // carries: `b` declared that its block counter carries from word 12 into
  // word 13 past 2^32 - 1 (OpenSSL EVP's semantics) instead of wrapping.
  bool (*carries)(const Backend* b);
  // overlap: where `b` declared crypt may write dst against src (module.h's
  // enum lockstep_chacha_overlap); lockstep's own take LOCKSTEP_OVERLAP_ANY.
  lockstep_chacha_overlap (*overlap)(const Backend* b);
};

// SubkeyAlgorithm derives a key from a key and an input block: HChaCha20.
// lockstep's own backends have no derivation of their own; a module's may.
struct SubkeyAlgorithm {
  std::string_view name;     // "hchacha20"
  std::string_view display;  // "HChaCha20"
  const Family* family;
  size_t key_size, input_size, output_size;
  void (*derive)(const uint8_t* key, const uint8_t* input, uint8_t* out);
  // derive_by derives with backend `b`'s own function and returns true, or
  // returns false and writes nothing where `b` has none.
  bool (*derive_by)(const Backend* b, const uint8_t* key, const uint8_t* input, uint8_t* out);
};

std::span<const Family* const> families();
std::span<const HashAlgorithm* const> hash_algorithms();
std::span<const CipherAlgorithm* const> cipher_algorithms();
std::span<const SubkeyAlgorithm* const> subkey_algorithms();

const Family* find_family(std::string_view name);
const HashAlgorithm* find_hash(std::string_view name);
const CipherAlgorithm* find_cipher(std::string_view name);
const SubkeyAlgorithm* find_subkey(std::string_view name);
// find_backend looks a backend up by its full name ("sha256/x86-shani").
const Backend* find_backend(std::string_view name);
// family_of returns the family a backend belongs to.
const Family* family_of(const Backend* b);

// find_algorithm_family returns the family of the hash or cipher `name`.
const Family* find_algorithm_family(std::string_view name);

// test_name names an (algorithm, backend) pair for test frameworks, which
// allow only [A-Za-z0-9_]: the algorithm and the backend name after its '/',
// with every other character turned into '_': ("sha224", "sha256/x86-shani")
// -> "sha224_x86_shani", ("sha512-224", "sha512/generic") -> "sha512_224_generic".
std::string test_name(std::string_view algorithm, const Backend& b);

}  // namespace lockstep::catalog
