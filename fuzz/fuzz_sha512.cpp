// fuzz_sha512: SHA-512, SHA-384 and their HMACs, every backend against the
// oracle, through the shared decoder. The family has no finup_2x.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "decoder.h"
#include "hash_check.h"
#include "progress.h"

namespace {
constexpr std::string_view kAlgorithms[] = {"sha512", "sha384"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const lockstep::fuzz::HashChoices choices{kAlgorithms, /*finup_2x=*/false, 128};
  lockstep::fuzz::check_hash_program(lockstep::fuzz::decode_hash(data, size, choices));
  lockstep::fuzz::progress_tick();
  return 0;
}
