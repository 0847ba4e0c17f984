// fuzz_sha256: SHA-256, SHA-224, their HMACs and finup_2x, every backend
// against the oracle, through the shared decoder.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "decoder.h"
#include "hash_check.h"
#include "progress.h"

namespace {
constexpr std::string_view kAlgorithms[] = {"sha256", "sha224"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const lockstep::fuzz::HashChoices choices{kAlgorithms, /*finup_2x=*/true, 64};
  lockstep::fuzz::check_hash_program(lockstep::fuzz::decode_hash(data, size, choices));
  lockstep::fuzz::progress_tick();
  return 0;
}
