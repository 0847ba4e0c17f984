// The catalog view of a SHA-2 algorithm, generated from the typed front end
// so that one implementation stands behind both. Each SHA-2 family folder
// (sha256/, sha512/) makes its entries with it in its catalog.cpp.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "catalog.h"
#include "sha2/sha2.h"

namespace lockstep::sha2 {

// typed recovers the family's descriptor type from a catalog backend; a
// backend of another family is a caller's bug, and aborts.
template <class F>
const HashBackend<F>* typed(const Backend* b) {
  if (!b) return nullptr;
  for (const auto* t : registry<F>())
    if (t == b) return t;
  std::fprintf(stderr, "lockstep: backend %.*s is not a %.*s backend\n",
               static_cast<int>(b->name.size()), b->name.data(),
               static_cast<int>(F::kName.size()), F::kName.data());
  std::abort();
}

// Registries hold typed descriptors; the catalog lists them as Backend.
template <class F>
std::span<const Backend* const> catalog_backends() {
  static const std::vector<const Backend*> list(registry<F>().begin(), registry<F>().end());
  return list;
}

template <class F>
const Backend* catalog_default_backend() {
  return default_backend<F>();
}

template <class F>
std::vector<const void*> catalog_code(const Backend* b) {
  const auto* h = static_cast<const HashBackend<F>*>(b);
  std::vector<const void*> out = {reinterpret_cast<const void*>(h->blocks)};
  if (h->finup_2x != nullptr) out.push_back(reinterpret_cast<const void*>(h->finup_2x));
  return out;
}

template <class A>
struct HashEntry {
  using F = typename A::Family;
  using H = Hash<A>;
  using M = Hmac<A>;
  using C = Ctx<F>;
  using HC = HmacCtx<A>;
  using Key = HmacKey<A>;

  static void init(void* c, const Backend* b) { H::init(*static_cast<C*>(c), typed<F>(b)); }
  static void update(void* c, const uint8_t* d, size_t n) { H::update(*static_cast<C*>(c), d, n); }
  static void final(void* c, uint8_t* out) { H::final(*static_cast<C*>(c), out); }
  static void digest(const uint8_t* d, size_t n, uint8_t* out, const Backend* b) {
    H::digest(d, n, out, typed<F>(b));
  }
  static void prepare(void* k, const uint8_t* raw, size_t n, const Backend* b) {
    M::prepare_key(*static_cast<Key*>(k), raw, n, typed<F>(b));
  }
  static void hinit(void* c, const void* k, const Backend* b) {
    M::init(*static_cast<HC*>(c), *static_cast<const Key*>(k), typed<F>(b));
  }
  static void hinit_raw(void* c, const uint8_t* raw, size_t n, const Backend* b) {
    M::init_usingrawkey(*static_cast<HC*>(c), raw, n, typed<F>(b));
  }
  static void hupdate(void* c, const uint8_t* d, size_t n) { M::update(*static_cast<HC*>(c), d, n); }
  static void hfinal(void* c, uint8_t* out) { M::final(*static_cast<HC*>(c), out); }
  static void hmac(const uint8_t* raw, size_t rn, const uint8_t* d, size_t n, uint8_t* out,
                   const Backend* b) {
    M::mac_usingrawkey(raw, rn, d, n, out, typed<F>(b));
  }

  static constexpr catalog::HashAlgorithm make(std::string_view display,
                                               const catalog::Family* family) {
    static_assert(alignof(C) <= 8 && alignof(HC) <= 8, "callers allocate 8-byte aligned contexts");
    return catalog::HashAlgorithm{
        .name = A::kName,
        .display = display,
        .family = family,
        .digest_size = A::kDigestSize,
        .block_size = F::kBlockSize,
        .ctx_size = sizeof(C),
        .ctx_align = alignof(C),
        .hmac_ctx_size = sizeof(HC),
        .hmac_key_size = sizeof(Key),
        .bytecount_offset = offsetof(typename F::Prefix, bytecount),  // Ctx starts with it
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

}  // namespace lockstep::sha2
