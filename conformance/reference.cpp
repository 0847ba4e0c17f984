#include "reference.h"

#include "oracle/oracle.h"

namespace lockstep::conformance {

bool oracle_for(const catalog::HashAlgorithm& alg) {
  return oracle::available(oracle::Source::kCryptoppPortable) && oracle::supports_hash(alg.name);
}

const Backend* generic_of(const catalog::HashAlgorithm& alg) {
  return alg.family->backends().back();
}

Bytes expected_digest(const catalog::HashAlgorithm& alg, std::span<const uint8_t> msg) {
  if (oracle_for(alg)) return oracle::digest(alg.name, oracle::Source::kCryptoppPortable, msg);
  Bytes out(alg.digest_size);
  alg.digest(msg.data(), msg.size(), out.data(), generic_of(alg));
  return out;
}

Bytes expected_hmac(const catalog::HashAlgorithm& alg, std::span<const uint8_t> key,
                    std::span<const uint8_t> msg) {
  if (oracle_for(alg)) return oracle::hmac(alg.name, oracle::Source::kCryptoppPortable, key, msg);
  Bytes out(alg.digest_size);
  alg.hmac(key.data(), key.size(), msg.data(), msg.size(), out.data(), generic_of(alg));
  return out;
}

}  // namespace lockstep::conformance
