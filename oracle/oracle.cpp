// Dispatch from a Source to its adapter, and the opinions of every source.
#include <stdexcept>
#include <string>

#include "internal.h"
#include "oracle.h"

namespace lockstep::oracle {
namespace {

#define LOCKSTEP_ORACLE_NAME(name, cls, evp) std::string_view(name),
constexpr std::string_view kNames[] = {LOCKSTEP_ORACLE_HASHES(LOCKSTEP_ORACLE_NAME)};
#undef LOCKSTEP_ORACLE_NAME

void check(std::string_view alg) {
  if (!supports_hash(alg)) throw std::invalid_argument("oracle: unknown algorithm " + std::string(alg));
}

}  // namespace

std::string_view source_name(Source s) {
  switch (s) {
    case Source::kCryptoppPortable: return "cryptopp-portable";
    case Source::kCryptoppSimd: return "cryptopp-simd";
    case Source::kOpenssl: return "openssl";
  }
  return "unknown";
}

#if !defined(LOCKSTEP_ORACLE_NONE)
// A build with the oracle links both libraries (cmake/Dependencies.cmake);
// one without them defines this in none.cpp.
bool available(Source) { return true; }
#endif

bool supports_hash(std::string_view alg) {
  for (std::string_view n : kNames)
    if (n == alg) return true;
  return false;
}

Bytes digest(std::string_view alg, Source s, std::span<const uint8_t> msg) {
  check(alg);
  switch (s) {
    case Source::kCryptoppPortable: return detail::cryptopp_digest(alg, true, msg);
    case Source::kCryptoppSimd: return detail::cryptopp_digest(alg, false, msg);
    case Source::kOpenssl: return detail::openssl_digest(alg, msg);
  }
  throw std::invalid_argument("oracle: unknown source");
}

Bytes hmac(std::string_view alg, Source s, std::span<const uint8_t> key,
           std::span<const uint8_t> msg) {
  check(alg);
  switch (s) {
    case Source::kCryptoppPortable: return detail::cryptopp_hmac(alg, true, key, msg);
    case Source::kCryptoppSimd: return detail::cryptopp_hmac(alg, false, key, msg);
    case Source::kOpenssl: return detail::openssl_hmac(alg, key, msg);
  }
  throw std::invalid_argument("oracle: unknown source");
}

std::string provider(std::string_view alg, Source s) {
  check(alg);
  switch (s) {
    case Source::kCryptoppPortable: return detail::cryptopp_provider(alg, true);
    case Source::kCryptoppSimd: return detail::cryptopp_provider(alg, false);
    case Source::kOpenssl: return detail::openssl_provider(alg);
  }
  throw std::invalid_argument("oracle: unknown source");
}

struct Stream::Impl {
  std::unique_ptr<detail::StreamImpl> stream;
};

Stream::Stream(std::string_view alg, Source s) : impl_(new Impl) {
  try {
    check(alg);
    switch (s) {
      case Source::kCryptoppPortable: impl_->stream = detail::cryptopp_stream(alg, true); break;
      case Source::kCryptoppSimd: impl_->stream = detail::cryptopp_stream(alg, false); break;
      case Source::kOpenssl: impl_->stream = detail::openssl_stream(alg); break;
    }
    if (!impl_->stream) throw std::invalid_argument("oracle: unknown source");
  } catch (...) {
    delete impl_;
    throw;
  }
}

Stream::~Stream() { delete impl_; }

void Stream::update(std::span<const uint8_t> data) { impl_->stream->update(data); }

Bytes Stream::final() { return impl_->stream->final(); }

// An unknown algorithm throws even when no source is available to ask.
std::vector<Opinion> digest_opinions(std::string_view alg, std::span<const uint8_t> msg) {
  check(alg);
  std::vector<Opinion> out;
  for (Source s : kAllSources)
    if (available(s)) out.push_back({std::string(source_name(s)), digest(alg, s, msg)});
  return out;
}

std::vector<Opinion> hmac_opinions(std::string_view alg, std::span<const uint8_t> key,
                                   std::span<const uint8_t> msg) {
  check(alg);
  std::vector<Opinion> out;
  for (Source s : kAllSources)
    if (available(s)) out.push_back({std::string(source_name(s)), hmac(alg, s, key, msg)});
  return out;
}

}  // namespace lockstep::oracle
