// Rng: reproducible pseudo-random inputs for the conformance cases. Every
// test draws from its own generator, seeded from LOCKSTEP_SEED (or a fixed
// default) and the test's full name, so a failure reproduces by rerunning
// that one test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace lockstep::conformance {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint32_t u32() { return static_cast<uint32_t>(engine_()); }
  uint64_t u64() { return engine_(); }
  bool coin() { return (engine_() & 1) != 0; }
  // below(n) is in [0, n); n must be > 0.
  size_t below(size_t n) { return static_cast<size_t>(engine_() % n); }
  // length(max) is in [0, max], biased as the kernel's rand_length() is
  // toward short lengths, plus lengths next to a multiple of `block`, where
  // padding and buffering change behaviour.
  size_t length(size_t max, size_t block = 64);
  void fill(uint8_t* p, size_t n);
  std::vector<uint8_t> bytes(size_t n);

 private:
  std::mt19937_64 engine_;
};

// base_seed is LOCKSTEP_SEED when set (decimal or 0x-hex), else a constant.
uint64_t base_seed();

// test_seed mixes base_seed() with the running test's full name.
uint64_t test_seed();

}  // namespace lockstep::conformance
