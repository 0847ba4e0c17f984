#include "kernel_rule.h"

namespace lockstep::vectors {

Bytes kernel_consolidated_hash(std::string_view alg, oracle::Source s, size_t max_len) {
  const Bytes data = kernel_data(max_len);
  oracle::Stream outer(alg, s);
  for (size_t len = 0; len <= max_len; ++len)
    outer.update(oracle::digest(alg, s, std::span(data).first(len)));
  return outer.final();
}

Bytes kernel_consolidated_hmac(std::string_view alg, oracle::Source s, size_t max_len) {
  // The oracle has no streaming HMAC, so the outer message is built in
  // memory: about max_len^2 / 2 bytes (8 MiB for the kernel's 4096).
  const Bytes data = kernel_data(max_len);
  Bytes outer;
  outer.reserve(max_len * (max_len + 1) / 2 + (max_len + 1) * 64);
  for (size_t len = 0; len <= max_len; ++len) {
    const auto part = std::span(data).first(len);
    outer.insert(outer.end(), part.begin(), part.end());
    const Bytes mac = oracle::hmac(alg, s, kernel_data(len % 293), part);
    outer.insert(outer.end(), mac.begin(), mac.end());
  }
  return oracle::hmac(alg, s, kernel_data(32), outer);
}

}  // namespace lockstep::vectors
