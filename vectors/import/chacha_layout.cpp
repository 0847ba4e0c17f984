// ChaCha layouts of upstream files on lockstep's (chacha_layout.h).
#include "chacha_layout.h"

namespace lockstep::vectors::import::detail {
namespace {

constexpr uint64_t kBlock = 64;
constexpr uint64_t kLow = 0xffffffff;

// last_low is the low counter word of the stream's last block, as a 64-bit
// sum (so that passing 2^32 - 1 shows), for a stream of at least one byte.
uint64_t last_low(const Keystream& k) { return (k.block & kLow) + (k.skip + k.in.size() - 1) / kBlock; }

}  // namespace

bool wraps32(const Keystream& k) { return !k.in.empty() && last_low(k) > kLow; }

void place(Keystream k, Case& c) {
  const uint64_t high = k.block >> 32;
  if (k.layout == Layout::kIetf) {
    if (high != 0 || wraps32(k)) {
      c.skip = kBeyondIetfCounter;
      return;
    }
  } else {
    if (wraps32(k)) {
      c.skip = kCarriesIntoWord13;
      return;
    }
    if (k.cipher == "xchacha20") {
      if (high != 0) {
        c.skip = kXchachaHighCounter;
        return;
      }
    } else {
      // The high counter word becomes the first nonce word.
      Bytes nonce = {static_cast<uint8_t>(high), static_cast<uint8_t>(high >> 8),
                     static_cast<uint8_t>(high >> 16), static_cast<uint8_t>(high >> 24)};
      nonce.insert(nonce.end(), k.nonce.begin(), k.nonce.end());
      k.nonce = std::move(nonce);
    }
  }
  c.algorithm = k.cipher;
  c.body = StreamCase{std::move(k.key), std::move(k.nonce), (k.block & kLow) * kBlock + k.skip,
                      std::move(k.in), std::move(k.out), Expect::kMatch};
}

}  // namespace lockstep::vectors::import::detail
