// Reference adapters. Crypto++ is the primary oracle; it runs in two modes,
// as detected (its SIMD paths, SHA-NI here) and portable (its CPU feature
// flags cleared), because its SIMD paths have had bugs of their own.
// OpenSSL's libcrypto is the independent second opinion.
//
// The oracle uses only the third-party libraries, never lockstep's impl.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep::oracle {

using Bytes = std::vector<uint8_t>;

enum class Source { kCryptoppPortable, kCryptoppSimd, kOpenssl };
inline constexpr Source kAllSources[] = {Source::kCryptoppPortable, Source::kCryptoppSimd,
                                         Source::kOpenssl};

// "cryptopp-portable", "cryptopp-simd", "openssl"
std::string_view source_name(Source s);

// Whether the library is linked in this build (cross builds have neither).
bool available(Source s);

// Algorithm names are the catalog's: "sha224", "sha256" (later "sha384",
// "sha512"). An unknown name throws std::invalid_argument.
bool supports_hash(std::string_view alg);
Bytes digest(std::string_view alg, Source s, std::span<const uint8_t> msg);
Bytes hmac(std::string_view alg, Source s, std::span<const uint8_t> key,
           std::span<const uint8_t> msg);

// provider names the code path `s` takes for `alg`: Crypto++'s
// AlgorithmProvider() ("SHANI", "SSE2", "C++", ...) in that mode, or the
// OpenSSL provider ("default"). Tests use it to prove that the two Crypto++
// modes run different code.
std::string provider(std::string_view alg, Source s);

// A streaming digest, for messages too large to hold (ACVP LDT, the kernel's
// consolidated values).
class Stream {
 public:
  Stream(std::string_view alg, Source s);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  void update(std::span<const uint8_t> data);
  Bytes final();

 private:
  struct Impl;
  Impl* impl_;
};

// Opinion is one party's answer to one question.
struct Opinion {
  std::string who;  // "sha256/generic", "cryptopp-portable", ...
  Bytes value;
};

// Vote groups opinions by value, so a report can say who agrees with whom.
struct Vote {
  std::vector<std::vector<std::string>> groups;  // largest group first
  bool unanimous() const { return groups.size() <= 1; }
  // "agree: [generic cryptopp-portable openssl] [sha256/x86-shani]"
  std::string to_string() const;
};

Vote tally(const std::vector<Opinion>& opinions);

// oracle_opinions asks every available source for the digest of `msg`.
std::vector<Opinion> digest_opinions(std::string_view alg, std::span<const uint8_t> msg);
std::vector<Opinion> hmac_opinions(std::string_view alg, std::span<const uint8_t> key,
                                   std::span<const uint8_t> msg);

}  // namespace lockstep::oracle
