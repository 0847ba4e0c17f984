#include "catalog.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "chacha/chacha.h"
#include "sha256/sha256.h"
#include "sha512/sha512.h"

namespace lockstep::catalog {
namespace {

// Registries hold typed descriptors; the catalog lists them as Backend.
template <auto Registry>
std::span<const Backend* const> as_backends() {
  static const std::vector<const Backend*> list = [] {
    std::vector<const Backend*> v;
    for (const auto* b : Registry()) v.push_back(b);
    return v;
  }();
  return list;
}

template <auto Default>
const Backend* default_of() {
  return Default();
}

template <class F>
constexpr Family kFamily = {F::kName, &as_backends<&sha2::registry<F>>,
                            &default_of<&sha2::default_backend<F>>};

constexpr Family kChachaFamily = {"chacha", &as_backends<&chacha::registry>,
                                  &default_of<&chacha::default_backend>};

template <class F>
const sha2::HashBackend<F>* typed(const Backend* b) {
  if (!b) return nullptr;
  for (const auto* t : sha2::registry<F>())
    if (t == b) return t;
  std::fprintf(stderr, "lockstep: backend %.*s is not a %.*s backend\n",
               static_cast<int>(b->name.size()), b->name.data(),
               static_cast<int>(F::kName.size()), F::kName.data());
  std::abort();
}

template <class A>
struct HashEntry {
  using F = typename A::Family;
  using H = sha2::Hash<A>;
  using M = sha2::Hmac<A>;
  using Ctx = sha2::Ctx<F>;
  using HCtx = sha2::HmacCtx<A>;
  using Key = sha2::HmacKey<A>;

  static void init(void* c, const Backend* b) { H::init(*static_cast<Ctx*>(c), typed<F>(b)); }
  static void update(void* c, const uint8_t* d, size_t n) { H::update(*static_cast<Ctx*>(c), d, n); }
  static void final(void* c, uint8_t* out) { H::final(*static_cast<Ctx*>(c), out); }
  static void digest(const uint8_t* d, size_t n, uint8_t* out, const Backend* b) {
    H::digest(d, n, out, typed<F>(b));
  }
  static void prepare(void* k, const uint8_t* raw, size_t n, const Backend* b) {
    M::prepare_key(*static_cast<Key*>(k), raw, n, typed<F>(b));
  }
  static void hinit(void* c, const void* k, const Backend* b) {
    M::init(*static_cast<HCtx*>(c), *static_cast<const Key*>(k), typed<F>(b));
  }
  static void hinit_raw(void* c, const uint8_t* raw, size_t n, const Backend* b) {
    M::init_usingrawkey(*static_cast<HCtx*>(c), raw, n, typed<F>(b));
  }
  static void hupdate(void* c, const uint8_t* d, size_t n) { M::update(*static_cast<HCtx*>(c), d, n); }
  static void hfinal(void* c, uint8_t* out) { M::final(*static_cast<HCtx*>(c), out); }
  static void hmac(const uint8_t* raw, size_t rn, const uint8_t* d, size_t n, uint8_t* out,
                   const Backend* b) {
    M::mac_usingrawkey(raw, rn, d, n, out, typed<F>(b));
  }

  static constexpr HashAlgorithm make(std::string_view display) {
    static_assert(alignof(Ctx) <= 8 && alignof(HCtx) <= 8, "callers allocate 8-byte aligned contexts");
    return HashAlgorithm{
        .name = A::kName,
        .display = display,
        .family = &kFamily<F>,
        .digest_size = A::kDigestSize,
        .block_size = F::kBlockSize,
        .ctx_size = sizeof(Ctx),
        .ctx_align = alignof(Ctx),
        .hmac_ctx_size = sizeof(HCtx),
        .hmac_key_size = sizeof(Key),
        .bytecount_offset = offsetof(Ctx, bytecount),
        .init = &init,
        .update = &update,
        .final = &final,
        .digest = &digest,
        .hmac_prepare_key = &prepare,
        .hmac_init = &hinit,
        .hmac_init_usingrawkey = &hinit_raw,
        .hmac_update = &hupdate,
        .hmac_final = &hfinal,
        .hmac = &hmac,
        .finup_2x = nullptr,
        .finup_2x_is_optimized = nullptr,
    };
  }
};

void sha256_finup_2x(const void* c, const uint8_t* d1, const uint8_t* d2, size_t n, uint8_t* o1,
                     uint8_t* o2, const Backend* b) {
  sha2::finup_2x(static_cast<const Sha256Ctx*>(c), d1, d2, n, o1, o2,
                 typed<sha2::Sha256Family>(b));
}

bool sha256_finup_2x_is_optimized(const Backend* b) {
  const auto* t = typed<sha2::Sha256Family>(b);
  return sha2::finup_2x_is_optimized(t ? t : sha2::default_backend<sha2::Sha256Family>());
}

const HashAlgorithm kSha256Algo = [] {
  HashAlgorithm a = HashEntry<sha2::Sha256>::make("SHA-256");
  a.finup_2x = &sha256_finup_2x;
  a.finup_2x_is_optimized = &sha256_finup_2x_is_optimized;
  return a;
}();
const HashAlgorithm kSha224Algo = HashEntry<sha2::Sha224>::make("SHA-224");
const HashAlgorithm kSha512Algo = HashEntry<sha2::Sha512>::make("SHA-512");
const HashAlgorithm kSha384Algo = HashEntry<sha2::Sha384>::make("SHA-384");

const chacha::ChachaBackend* typed_chacha(const Backend* b) {
  if (!b) return nullptr;
  for (const auto* t : chacha::registry())
    if (t == b) return t;
  std::fprintf(stderr, "lockstep: backend %.*s is not a chacha backend\n",
               static_cast<int>(b->name.size()), b->name.data());
  std::abort();
}

template <int Rounds>
struct CipherEntry {
  static void init(uint32_t state[16], const uint8_t* key, uint32_t counter, const uint8_t* nonce) {
    chacha::State s;
    chacha::init_rfc8439(s, key, counter, nonce);
    std::copy(std::begin(s.x), std::end(s.x), state);
  }
  static void crypt(uint32_t state[16], uint8_t* dst, const uint8_t* src, size_t len,
                    const Backend* b) {
    chacha::State s;
    std::copy(state, state + 16, s.x);
    chacha::crypt(s, dst, src, len, Rounds, typed_chacha(b));
    std::copy(std::begin(s.x), std::end(s.x), state);
  }
  static constexpr CipherAlgorithm make(std::string_view name, std::string_view display) {
    return {name, display, &kChachaFamily, Rounds, &init, &crypt};
  }
};

const CipherAlgorithm kChacha20Algo = CipherEntry<20>::make("chacha20", "ChaCha20");
const CipherAlgorithm kChacha12Algo = CipherEntry<12>::make("chacha12", "ChaCha12");

const std::array<const Family*, 3> kFamilies = {
    &kFamily<sha2::Sha256Family>, &kFamily<sha2::Sha512Family>, &kChachaFamily};
const std::array<const HashAlgorithm*, 4> kHashes = {&kSha256Algo, &kSha224Algo, &kSha512Algo,
                                                     &kSha384Algo};

}  // namespace

std::span<const Family* const> families() { return kFamilies; }
std::span<const HashAlgorithm* const> hash_algorithms() { return kHashes; }
const std::array<const CipherAlgorithm*, 2> kCiphers = {&kChacha20Algo, &kChacha12Algo};
std::span<const CipherAlgorithm* const> cipher_algorithms() { return kCiphers; }

const Family* find_family(std::string_view name) {
  for (const Family* f : kFamilies)
    if (f->name == name) return f;
  return nullptr;
}

const HashAlgorithm* find_hash(std::string_view name) {
  for (const HashAlgorithm* h : kHashes)
    if (h->name == name) return h;
  return nullptr;
}

const CipherAlgorithm* find_cipher(std::string_view name) {
  for (const CipherAlgorithm* c : kCiphers)
    if (c->name == name) return c;
  return nullptr;
}

const Family* find_algorithm_family(std::string_view name) {
  if (const HashAlgorithm* h = find_hash(name)) return h->family;
  if (const CipherAlgorithm* c = find_cipher(name)) return c->family;
  return nullptr;
}

const Backend* find_backend(std::string_view name) {
  for (const Family* f : kFamilies)
    for (const Backend* b : f->backends())
      if (b->name == name) return b;
  return nullptr;
}

const Family* family_of(const Backend* b) {
  for (const Family* f : kFamilies)
    for (const Backend* x : f->backends())
      if (x == b) return f;
  return nullptr;
}

std::string test_name(std::string_view algorithm, const Backend& b) {
  std::string_view impl = b.name.substr(b.name.find('/') + 1);
  std::string out(algorithm);
  out += '_';
  for (const char c : impl) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

}  // namespace lockstep::catalog
