// Small byte helpers shared by the suites: hex for messages, the
// description of a mismatch (mismatch.h), zero checks, and storage for the
// catalog's type-erased contexts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "mismatch.h"

namespace lockstep::conformance {

using Bytes = std::vector<uint8_t>;

// hex renders bytes as lowercase hex; long inputs are cut after `max` bytes
// with the full length noted, so that failure messages stay readable. Two
// values that differ only past `max` print alike: to compare two byte
// strings in a message, use describe_mismatch (mismatch.h).
std::string hex(std::span<const uint8_t> b, size_t max = 64);

bool all_zero(const void* p, size_t n);

// put copies `src` to `dst` (memcpy without its null-pointer rule for an
// empty vector).
inline void put(uint8_t* dst, std::span<const uint8_t> src) {
  for (size_t i = 0; i < src.size(); ++i) dst[i] = src[i];
}

// RawCtx is heap storage for a catalog context (or HMAC key) of `size`
// bytes aligned to `align`, filled with a non-zero pattern so that a
// zeroisation check cannot pass by accident.
class RawCtx {
 public:
  RawCtx(size_t size, size_t align);
  ~RawCtx();
  RawCtx(const RawCtx&) = delete;
  RawCtx& operator=(const RawCtx&) = delete;

  void* get() const { return p_; }
  uint8_t* bytes() const { return static_cast<uint8_t*>(p_); }
  size_t size() const { return size_; }

 private:
  size_t size_, align_;
  void* p_;
};

}  // namespace lockstep::conformance
