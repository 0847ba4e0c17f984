// The oracle of a build without Crypto++ and OpenSSL (the cross builds: the
// target has neither library). No source is available; every question that
// would need a library throws, naming why, so that a suite which forgets to
// check available() fails loudly instead of comparing against nothing.
//
// Questions that need no library keep working: source_name, supports_hash,
// tally, and the *_opinions calls, which ask only the available sources and
// so return no opinion.
#include <stdexcept>
#include <string>

#include "internal.h"
#include "oracle.h"

namespace lockstep::oracle {

bool available(Source) { return false; }

namespace detail {
namespace {

[[noreturn]] void unavailable(std::string_view what, std::string_view alg) {
  throw std::runtime_error(
      "oracle: " + std::string(what) + "(" + std::string(alg) +
      ") asked of a build without an oracle: Crypto++ and OpenSSL were not found for this "
      "target (cross builds have neither), so no source is available; check "
      "oracle::available() first");
}

}  // namespace

Bytes cryptopp_digest(std::string_view alg, bool, std::span<const uint8_t>) {
  unavailable("digest", alg);
}
Bytes cryptopp_hmac(std::string_view alg, bool, std::span<const uint8_t>,
                    std::span<const uint8_t>) {
  unavailable("hmac", alg);
}
std::unique_ptr<StreamImpl> cryptopp_stream(std::string_view alg, bool) {
  unavailable("Stream", alg);
}
std::string cryptopp_provider(std::string_view alg, bool) { unavailable("provider", alg); }

Bytes openssl_digest(std::string_view alg, std::span<const uint8_t>) {
  unavailable("digest", alg);
}
Bytes openssl_hmac(std::string_view alg, std::span<const uint8_t>, std::span<const uint8_t>) {
  unavailable("hmac", alg);
}
std::unique_ptr<StreamImpl> openssl_stream(std::string_view alg) { unavailable("Stream", alg); }
std::string openssl_provider(std::string_view alg) { unavailable("provider", alg); }

}  // namespace detail
}  // namespace lockstep::oracle
