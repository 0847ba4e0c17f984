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

bool is_cryptopp(Source s) { return s == Source::kCryptoppPortable || s == Source::kCryptoppSimd; }

void check_size(std::string_view what, std::span<const uint8_t> v, size_t want) {
  if (v.size() != want)
    throw std::invalid_argument("oracle: " + std::string(what) + " must be " +
                                std::to_string(want) + " bytes, not " + std::to_string(v.size()));
}

[[noreturn]] void unsupported(Source s, const std::string& what) {
  throw std::invalid_argument("oracle: " + std::string(source_name(s)) + " does not support " +
                              what);
}

std::string chacha_name(int rounds) { return "chacha" + std::to_string(rounds); }

void check_chacha(Source s, int rounds) {
  if (!supports_chacha(s, rounds)) unsupported(s, chacha_name(rounds));
}

bool any_supports_chacha(int rounds) {
  for (Source s : kAllSources)
    if (supports_chacha(s, rounds)) return true;
  return false;
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

bool supports_chacha(Source s, int rounds) {
  if (is_cryptopp(s)) return rounds == 20 || rounds == 12 || rounds == 8;
  return s == Source::kOpenssl && rounds == 20;
}

Bytes chacha(Source s, int rounds, std::span<const uint8_t> key32, uint32_t counter,
             std::span<const uint8_t> nonce12, std::span<const uint8_t> msg) {
  check_chacha(s, rounds);
  check_size("chacha key", key32, 32);
  check_size("chacha nonce", nonce12, 12);
  switch (s) {
    case Source::kCryptoppPortable:
      return detail::cryptopp_chacha(rounds, true, key32, counter, nonce12, msg);
    case Source::kCryptoppSimd:
      return detail::cryptopp_chacha(rounds, false, key32, counter, nonce12, msg);
    case Source::kOpenssl: return detail::openssl_chacha20(key32, counter, nonce12, msg);
  }
  throw std::invalid_argument("oracle: unknown source");
}

bool supports_hchacha20(Source s) { return is_cryptopp(s) || s == Source::kOpenssl; }

Bytes hchacha20(Source s, std::span<const uint8_t> key32, std::span<const uint8_t> nonce16) {
  if (!supports_hchacha20(s)) unsupported(s, "hchacha20");
  check_size("hchacha20 key", key32, 32);
  check_size("hchacha20 nonce", nonce16, 16);
  switch (s) {
    case Source::kCryptoppPortable: return detail::cryptopp_hchacha(20, true, key32, nonce16);
    case Source::kCryptoppSimd: return detail::cryptopp_hchacha(20, false, key32, nonce16);
    case Source::kOpenssl: return detail::openssl_hchacha20(key32, nonce16);
  }
  throw std::invalid_argument("oracle: unknown source");
}

bool supports_hchacha(Source s, int rounds) {
  return rounds == 20 ? supports_hchacha20(s) : rounds == 12 && is_cryptopp(s);
}

Bytes hchacha(Source s, int rounds, std::span<const uint8_t> key32, std::span<const uint8_t> nonce16) {
  if (rounds == 20) return hchacha20(s, key32, nonce16);
  if (!supports_hchacha(s, rounds)) unsupported(s, "hchacha" + std::to_string(rounds));
  check_size("hchacha key", key32, 32);
  check_size("hchacha nonce", nonce16, 16);
  return detail::cryptopp_hchacha(rounds, s == Source::kCryptoppPortable, key32, nonce16);
}

bool supports_xchacha20(Source s) { return is_cryptopp(s); }

Bytes xchacha20(Source s, std::span<const uint8_t> key32, std::span<const uint8_t> nonce24,
                uint32_t counter, std::span<const uint8_t> msg) {
  if (!supports_xchacha20(s)) unsupported(s, "xchacha20");
  check_size("xchacha20 key", key32, 32);
  check_size("xchacha20 nonce", nonce24, 24);
  switch (s) {
    case Source::kCryptoppPortable:
      return detail::cryptopp_xchacha20(true, key32, nonce24, counter, msg);
    case Source::kCryptoppSimd:
      return detail::cryptopp_xchacha20(false, key32, nonce24, counter, msg);
    case Source::kOpenssl: break;  // unsupported, refused above
  }
  throw std::invalid_argument("oracle: unknown source");
}

std::string chacha_provider(Source s, int rounds) {
  check_chacha(s, rounds);
  switch (s) {
    case Source::kCryptoppPortable: return detail::cryptopp_chacha_provider(rounds, true);
    case Source::kCryptoppSimd: return detail::cryptopp_chacha_provider(rounds, false);
    case Source::kOpenssl: return detail::openssl_chacha_provider();
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

// Rounds that no source supports are the caller's mistake, reported even
// when no source is available, as an unknown hash is.
std::vector<Opinion> chacha_opinions(int rounds, std::span<const uint8_t> key32, uint32_t counter,
                                     std::span<const uint8_t> nonce12,
                                     std::span<const uint8_t> msg) {
  if (!any_supports_chacha(rounds))
    throw std::invalid_argument("oracle: no source supports " + chacha_name(rounds));
  check_size("chacha key", key32, 32);
  check_size("chacha nonce", nonce12, 12);
  std::vector<Opinion> out;
  for (Source s : kAllSources)
    if (available(s) && supports_chacha(s, rounds))
      out.push_back({std::string(source_name(s)), chacha(s, rounds, key32, counter, nonce12, msg)});
  return out;
}

std::vector<Opinion> hchacha20_opinions(std::span<const uint8_t> key32,
                                        std::span<const uint8_t> nonce16) {
  check_size("hchacha20 key", key32, 32);
  check_size("hchacha20 nonce", nonce16, 16);
  std::vector<Opinion> out;
  for (Source s : kAllSources)
    if (available(s) && supports_hchacha20(s))
      out.push_back({std::string(source_name(s)), hchacha20(s, key32, nonce16)});
  return out;
}

std::vector<Opinion> xchacha20_opinions(std::span<const uint8_t> key32,
                                        std::span<const uint8_t> nonce24, uint32_t counter,
                                        std::span<const uint8_t> msg) {
  check_size("xchacha20 key", key32, 32);
  check_size("xchacha20 nonce", nonce24, 24);
  std::vector<Opinion> out;
  for (Source s : kAllSources)
    if (available(s) && supports_xchacha20(s))
      out.push_back({std::string(source_name(s)), xchacha20(s, key32, nonce24, counter, msg)});
  return out;
}

}  // namespace lockstep::oracle
