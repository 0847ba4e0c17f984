#include "bytes.h"

#include <cstring>

namespace lockstep::conformance {

std::string hex(std::span<const uint8_t> b, size_t max) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  const size_t n = b.size() < max ? b.size() : max;
  out.reserve(2 * n + 24);
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[b[i] >> 4];
    out += kDigits[b[i] & 15];
  }
  if (n < b.size()) out += "... (" + std::to_string(b.size()) + " bytes)";
  return out;
}

bool all_zero(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != 0) return false;
  return true;
}

RawCtx::RawCtx(size_t size, size_t align)
    : size_(size), align_(align), p_(::operator new (size, std::align_val_t{align})) {
  std::memset(p_, 0xa5, size_);
}

RawCtx::~RawCtx() { ::operator delete (p_, std::align_val_t{align_}); }

}  // namespace lockstep::conformance
