// The kernel's consolidated checks (lib/crypto/tests/hash-test-template.h)
// through a backend: one value that folds the results for every length up
// to 4096, on the kernel's deterministic data, so that the vector files can
// hold them and lockstep's results can be diffed with the kernel's
// *-testvecs.h. The rules themselves are vectors/kernel_walk.h's.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "bytes.h"
#include "catalog.h"

namespace lockstep::conformance {

struct Consolidated {
  Bytes value;
  bool ctx_zeroized = false;  // the outer context was all zero after final
};

// consolidated_hash: H(H(d[:0]) || H(d[:1]) || ... || H(d[:max_len])) with
// d = kernel_data(max_len), every hash through `b`. `d` ends at a guard page.
Consolidated consolidated_hash(const catalog::HashAlgorithm& alg, const Backend* b, size_t max_len);

// One step of the HMAC rule, for callers that check each MAC on the way.
struct HmacStep {
  size_t data_len;
  std::span<const uint8_t> key;   // kernel_data(data_len % 293)
  std::span<const uint8_t> data;  // kernel_data(max_len)[:data_len]
  std::span<const uint8_t> mac;   // HMAC(key, data) through `b`, raw-key API
};

// consolidated_hmac: an HMAC keyed with kernel_data(32), updated for each
// L = 0..max_len with d[:L] and then with HMAC(kernel_data(L % 293), d[:L]);
// the tag of that outer HMAC. Keys and data end at guard pages.
Consolidated consolidated_hmac(const catalog::HashAlgorithm& alg, const Backend* b, size_t max_len,
                               const std::function<void(const HmacStep&)>& observe = {});

}  // namespace lockstep::conformance
