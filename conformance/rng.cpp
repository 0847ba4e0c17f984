#include "rng.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "env_value.h"

namespace lockstep::conformance {

size_t Rng::length(size_t max, size_t block) {
  size_t len;
  switch (below(4)) {
    case 0:
      len = below(128);
      break;
    case 1:
      len = below(3072);
      break;
    case 2:
      len = block * below(64) + below(3) + block - 1;
      break;  // k*block - 1 .. k*block + 1
    default:
      len = static_cast<size_t>(u32());
      break;
  }
  return len % (max + 1);
}

void Rng::fill(uint8_t* p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v = engine_();
    for (int k = 0; k < 8; ++k) p[i + k] = static_cast<uint8_t>(v >> (8 * k));
  }
  if (i < n) {
    uint64_t v = engine_();
    for (; i < n; ++i, v >>= 8) p[i] = static_cast<uint8_t>(v);
  }
}

std::vector<uint8_t> Rng::bytes(size_t n) {
  std::vector<uint8_t> out(n);
  fill(out.data(), n);
  return out;
}

uint64_t base_seed() {
  // main has refused a value that is no seed (env_check.h).
  if (const char* s = std::getenv("LOCKSTEP_SEED"); s && *s) return env::parse_seed(s).value_or(0);
  return 0x6c6f636b73746570;  // "lockstep"
}

uint64_t test_seed() {
  // FNV-1a over "Suite.Name", so the seed does not depend on test order.
  uint64_t h = 0xcbf29ce484222325 ^ base_seed();
  if (const testing::TestInfo* t = testing::UnitTest::GetInstance()->current_test_info()) {
    const std::string name = std::string(t->test_suite_name()) + "." + t->name();
    for (const char c : name) {
      h ^= static_cast<uint8_t>(c);
      h *= 0x100000001b3;
    }
  }
  return h;
}

}  // namespace lockstep::conformance
