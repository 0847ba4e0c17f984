// The SHA-2 front end: one template for SHA-224 and SHA-256 (the 32-bit
// family) and SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (the 64-bit
// one), after the Linux lib/crypto shape.
//
// The front end owns buffering, padding, the length field, HMAC key
// derivation and the sequential finup_2x. Backends supply only a block
// function over whole blocks, plus an optional 2-way finup_2x.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "backend.h"
#include "lockstep/module.h"

namespace lockstep::sha2 {

// The context prefix a 2-way finup reads. SHA-256's is the module
// interface's (the kernel's struct __sha256_ctx); SHA-512 has the same shape.
struct Sha512Prefix {
  lockstep_sha512_state state;
  uint64_t bytecount;
  uint8_t buf[128];
};

// A family shares the compression function: SHA-224 and SHA-256 are one
// family, and backends are written per family.
struct Sha256Family {
  using Word = uint32_t;
  using State = lockstep_sha256_state;  // built-in and module backends share it
  using Prefix = lockstep_sha256_ctx;
  static constexpr auto kModuleBlocks = &lockstep_backend::sha256_blocks;
  static constexpr auto kModuleFinup2x = &lockstep_backend::sha256_finup_2x;
  static constexpr std::string_view kName = "sha256";
  static constexpr size_t kBlockSize = 64;
  static constexpr size_t kLengthFieldSize = 8;  // big-endian bit count
};

struct Sha512Family {
  using Word = uint64_t;
  using State = lockstep_sha512_state;
  using Prefix = Sha512Prefix;
  static constexpr auto kModuleBlocks = &lockstep_backend::sha512_blocks;
  static constexpr std::string_view kName = "sha512";
  static constexpr size_t kBlockSize = 128;
  static constexpr size_t kLengthFieldSize = 16;  // big-endian 128-bit bit count
};

// BlockState is the eight chaining words, in host order: the module
// interface's C struct, so a module's block function has the very type of a
// built-in one.
template <class F>
using BlockState = typename F::State;

template <class F>
struct Ctx;

// HashBackend is a SHA-2 backend descriptor.
template <class F>
struct HashBackend : Backend {
  // blocks compresses `nblocks` (>= 1) whole blocks of `data` into `state`.
  // `data` has no alignment; it may alias nothing the backend writes.
  void (*blocks)(BlockState<F>* state, const uint8_t* data, size_t nblocks);

  // finup_2x, when not null, finishes two messages that share the prefix
  // state in `ctx` (not modified), writing the two full-size digests. It may
  // decline (return false), for example outside the lengths it handles, and
  // the front end then finishes both sequentially.
  bool (*finup_2x)(const typename F::Prefix* ctx, const uint8_t* data1, const uint8_t* data2,
                   size_t len, uint8_t* out1, uint8_t* out2) = nullptr;
};

// Ctx is the incremental hashing context: the pinned prefix (state,
// bytecount: bytes absorbed so far, buffered ones included, and buf) that
// 2-way backends read, and the backend chosen at init. Zeroised by final().
template <class F>
struct Ctx : F::Prefix {
  const HashBackend<F>* backend;
};
static_assert(offsetof(lockstep_sha256_ctx, bytecount) == 32);
static_assert(offsetof(lockstep_sha256_ctx, buf) == 40);
static_assert(offsetof(Sha512Prefix, bytecount) == 64);
static_assert(offsetof(Sha512Prefix, buf) == 72);

// registry lists every backend of family F compiled for this target, best
// first and generic last. Defined by each family's registry.cpp.
template <class F>
std::span<const HashBackend<F>* const> registry();

// default_backend is the best backend usable with the effective features.
template <class F>
const HashBackend<F>* default_backend();

// Algorithms: a family, an IV and a digest size.
struct Sha256 {
  using Family = Sha256Family;
  static constexpr std::string_view kName = "sha256";
  static constexpr size_t kDigestSize = 32;
  static constexpr BlockState<Family> kIv = {{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}};
};

struct Sha224 {
  using Family = Sha256Family;
  static constexpr std::string_view kName = "sha224";
  static constexpr size_t kDigestSize = 28;
  static constexpr BlockState<Family> kIv = {{0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                              0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4}};
};

struct Sha512 {
  using Family = Sha512Family;
  static constexpr std::string_view kName = "sha512";
  static constexpr size_t kDigestSize = 64;
  static constexpr BlockState<Family> kIv = {
      {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
       0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179}};
};

struct Sha384 {
  using Family = Sha512Family;
  static constexpr std::string_view kName = "sha384";
  static constexpr size_t kDigestSize = 48;
  static constexpr BlockState<Family> kIv = {
      {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
       0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4}};
};

// SHA-512/t (FIPS 180-4, 5.3.6): SHA-512 from its own IV, cut to t bits.
// Every SHA-512 backend serves them; final() writes the first t / 8 bytes of
// the big-endian state, so t = 224 ends halfway through the fourth word.
struct Sha512_224 {
  using Family = Sha512Family;
  static constexpr std::string_view kName = "sha512-224";
  static constexpr size_t kDigestSize = 28;
  static constexpr BlockState<Family> kIv = {
      {0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
       0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1}};
};

struct Sha512_256 {
  using Family = Sha512Family;
  static constexpr std::string_view kName = "sha512-256";
  static constexpr size_t kDigestSize = 32;
  static constexpr BlockState<Family> kIv = {
      {0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
       0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2}};
};

// Hash<A> is the kernel-style API of algorithm A. A null backend means the
// default one; the context remembers the backend chosen at init.
template <class A>
struct Hash {
  using Family = typename A::Family;
  using Ctx = sha2::Ctx<Family>;
  using Backend = HashBackend<Family>;
  static constexpr size_t kDigestSize = A::kDigestSize;
  static constexpr size_t kBlockSize = Family::kBlockSize;

  static void init(Ctx& ctx, const Backend* backend = nullptr);
  static void update(Ctx& ctx, const uint8_t* data, size_t len);
  // final writes kDigestSize bytes to `out` and zeroises `ctx`. `out` may
  // overlap anything the caller passed to update() earlier.
  static void final(Ctx& ctx, uint8_t* out);
  static void digest(const uint8_t* data, size_t len, uint8_t* out,
                     const Backend* backend = nullptr);
};

// HMAC over A (RFC 2104), with a prepared key or a raw key.
template <class A>
struct HmacKey {
  BlockState<typename A::Family> istate, ostate;
};

template <class A>
struct HmacCtx {
  Ctx<typename A::Family> inner;
  BlockState<typename A::Family> ostate;
};

template <class A>
struct Hmac {
  using Backend = HashBackend<typename A::Family>;
  static constexpr size_t kMacSize = A::kDigestSize;

  static void prepare_key(HmacKey<A>& key, const uint8_t* raw, size_t raw_len,
                          const Backend* backend = nullptr);
  static void init(HmacCtx<A>& ctx, const HmacKey<A>& key, const Backend* backend = nullptr);
  static void init_usingrawkey(HmacCtx<A>& ctx, const uint8_t* raw, size_t raw_len,
                               const Backend* backend = nullptr);
  static void update(HmacCtx<A>& ctx, const uint8_t* data, size_t len);
  // final writes kMacSize bytes and zeroises `ctx`.
  static void final(HmacCtx<A>& ctx, uint8_t* out);
  static void mac(const HmacKey<A>& key, const uint8_t* data, size_t len, uint8_t* out,
                  const Backend* backend = nullptr);
  static void mac_usingrawkey(const uint8_t* raw, size_t raw_len, const uint8_t* data, size_t len,
                              uint8_t* out, const Backend* backend = nullptr);
};

// finup_2x finishes two equal-length messages after a shared prefix: `ctx`
// holds the prefix (null means the empty prefix, hashed with `backend` or the
// default one). `ctx` is not modified. Equivalent to two copies of `ctx`,
// each updated with its data and finalised; backends with a 2-way path
// interleave the two computations (the kernel's sha256_finup_2x).
void finup_2x(const Ctx<Sha256Family>* ctx, const uint8_t* data1, const uint8_t* data2,
              size_t len, uint8_t out1[32], uint8_t out2[32],
              const HashBackend<Sha256Family>* backend = nullptr);

// finup_2x_is_optimized says whether `backend` has a 2-way path.
inline bool finup_2x_is_optimized(const HashBackend<Sha256Family>* backend) {
  return backend && backend->finup_2x != nullptr;
}

}  // namespace lockstep::sha2
