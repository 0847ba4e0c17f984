// fuzz_chacha: ChaCha20 and ChaCha12, every backend against the oracle,
// through the shared decoder: counters near the 2^32 wrap, messages split
// into calls of whole blocks, offsets and in-place or overlapping buffers.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cipher_check.h"
#include "decoder.h"
#include "progress.h"

namespace {
constexpr std::string_view kAlgorithms[] = {"chacha20", "chacha12"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const lockstep::fuzz::CipherChoices choices{kAlgorithms};
  lockstep::fuzz::check_cipher_program(lockstep::fuzz::decode_cipher(data, size, choices));
  lockstep::fuzz::progress_tick();
  return 0;
}
