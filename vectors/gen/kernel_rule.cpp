#include "kernel_rule.h"

#include "vectors/kernel_walk.h"

namespace lockstep::vectors {

Bytes kernel_consolidated_hash(std::string_view alg, oracle::Source s, size_t max_len) {
  const Bytes data = kernel_data(max_len);
  oracle::Stream outer(alg, s);
  kernel_hash_walk(
      data, [&](std::span<const uint8_t> msg) { return oracle::digest(alg, s, msg); },
      [&](std::span<const uint8_t> part) { outer.update(part); });
  return outer.final();
}

Bytes kernel_consolidated_hmac(std::string_view alg, oracle::Source s, size_t max_len) {
  // The oracle has no streaming HMAC, so the outer message is built in
  // memory: about max_len^2 / 2 bytes (8 MiB for the kernel's 4096).
  const Bytes data = kernel_data(max_len);
  Bytes outer;
  outer.reserve(max_len * (max_len + 1) / 2 + (max_len + 1) * 64);
  kernel_hmac_walk(
      data,
      [&](std::span<const uint8_t> key, std::span<const uint8_t> msg) {
        return oracle::hmac(alg, s, key, msg);
      },
      [&](std::span<const uint8_t> part) { outer.insert(outer.end(), part.begin(), part.end()); });
  return oracle::hmac(alg, s, kernel_data(kKernelHmacOuterKeyLen), outer);
}

}  // namespace lockstep::vectors
