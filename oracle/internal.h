// Shared by the oracle's adapters; not part of the contract in oracle.h.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "oracle.h"

namespace lockstep::oracle::detail {

// LOCKSTEP_ORACLE_HASHES lists every algorithm the oracle knows, one line
// each: the catalog name, the Crypto++ class and the OpenSSL EVP_MD getter.
// Each adapter expands it with its own X, so adding an algorithm is one line.
#define LOCKSTEP_ORACLE_HASHES(X)   \
  X("sha224", SHA224, EVP_sha224) \
  X("sha256", SHA256, EVP_sha256) \
  X("sha384", SHA384, EVP_sha384) \
  X("sha512", SHA512, EVP_sha512)

// StreamImpl is one library's incremental digest.
class StreamImpl {
 public:
  virtual ~StreamImpl() = default;
  virtual void update(std::span<const uint8_t> data) = 0;
  virtual Bytes final() = 0;
};

// Crypto++ (cryptopp.cpp). `portable` runs with its CPU feature flags
// cleared. `alg` must be known (oracle.cpp checks).
Bytes cryptopp_digest(std::string_view alg, bool portable, std::span<const uint8_t> msg);
Bytes cryptopp_hmac(std::string_view alg, bool portable, std::span<const uint8_t> key,
                    std::span<const uint8_t> msg);
std::unique_ptr<StreamImpl> cryptopp_stream(std::string_view alg, bool portable);
std::string cryptopp_provider(std::string_view alg, bool portable);

// OpenSSL libcrypto (openssl.cpp).
Bytes openssl_digest(std::string_view alg, std::span<const uint8_t> msg);
Bytes openssl_hmac(std::string_view alg, std::span<const uint8_t> key,
                   std::span<const uint8_t> msg);
std::unique_ptr<StreamImpl> openssl_stream(std::string_view alg);
std::string openssl_provider(std::string_view alg);

// nonnull gives libraries a valid pointer for empty spans: some of them
// treat a null key as "no key", and memcpy(dst, nullptr, 0) is undefined.
inline const uint8_t* nonnull(std::span<const uint8_t> s) {
  static const uint8_t kEmpty = 0;
  return s.empty() ? &kEmpty : s.data();
}

}  // namespace lockstep::oracle::detail
