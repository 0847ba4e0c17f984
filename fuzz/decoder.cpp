#include "decoder.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>

namespace lockstep::fuzz {
namespace {

// Update sizes favour the edges where buffering code goes wrong: empty
// updates, a few bytes, and one byte either side of whole blocks.
size_t split_size(FuzzedDataProvider& in, size_t block) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.ConsumeIntegralInRange<size_t>(0, 3);
    case 1: return block * in.ConsumeIntegralInRange<size_t>(1, 4) + in.ConsumeIntegralInRange<size_t>(0, 2) - 1;
    case 2: return in.ConsumeIntegralInRange<size_t>(0, 4 * block);
    default: return 0;
  }
}

// Key lengths around the block size matter (a key longer than a block is
// hashed first).
size_t key_length(FuzzedDataProvider& in, size_t block) {
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: return in.ConsumeIntegralInRange<size_t>(0, block);
    case 1: return block + in.ConsumeIntegralInRange<size_t>(0, 2) - 1;
    default: return in.ConsumeIntegralInRange<size_t>(block + 2, 3 * block);
  }
}

// The first block counter: most programs start close enough below 2^32 to
// wrap inside the message, where a 64-bit or carrying counter goes wrong.
uint32_t counter(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.ConsumeIntegralInRange<uint32_t>(0, 3);
    case 1: return in.ConsumeIntegral<uint32_t>();
    default: return 0u - in.ConsumeIntegralInRange<uint32_t>(1, 40);  // 2^32 - k
  }
}

// The program's common layout: offsets, overlap and split sizes.
void decode_layout(FuzzedDataProvider& in, Program& p, size_t block, bool whole_blocks) {
  p.in_offset = in.ConsumeIntegralInRange<size_t>(0, 127);
  p.out_offset = in.ConsumeIntegralInRange<size_t>(0, 127);
  p.ctx_offset = 8 * in.ConsumeIntegralInRange<size_t>(0, 15);
  p.overlap = static_cast<Overlap>(in.ConsumeIntegralInRange<int>(0, 2));
  const size_t nsplits = in.ConsumeIntegralInRange<size_t>(0, 8);
  for (size_t i = 0; i < nsplits; ++i)
    p.splits.push_back(whole_blocks ? block * in.ConsumeIntegralInRange<size_t>(0, 20)
                                    : split_size(in, block));
}

}  // namespace

Program decode_cipher(const uint8_t* data, size_t size, const CipherChoices& c) {
  FuzzedDataProvider in(data, size);
  Program p;
  const size_t pick = in.ConsumeIntegralInRange<size_t>(0, c.algorithms.size() - 1);
  p.algorithm = std::string(c.algorithms[pick]);
  const size_t nonce_size = c.nonce_sizes.empty() ? 12 : c.nonce_sizes[pick];
  p.op = Operation::kCrypt;
  p.counter = counter(in);
  // Calls of whole blocks keep the keystream continuous (a partial block
  // consumes its counter value).
  decode_layout(in, p, 64, /*whole_blocks=*/true);
  p.key = in.ConsumeBytes<uint8_t>(32);
  p.key.resize(32);
  p.nonce = in.ConsumeBytes<uint8_t>(nonce_size);
  p.nonce.resize(nonce_size);
  p.message = in.ConsumeRemainingBytes<uint8_t>();
  return p;
}

Program decode_hash(const uint8_t* data, size_t size, const HashChoices& c) {
  // Integers are taken from the end of the input and bytes from the front,
  // so mutations of the message do not reshuffle the parameters.
  FuzzedDataProvider in(data, size);
  Program p;
  p.algorithm = std::string(c.algorithms[in.ConsumeIntegralInRange<size_t>(0, c.algorithms.size() - 1)]);
  p.op = static_cast<Operation>(in.ConsumeIntegralInRange<int>(0, c.finup_2x ? 2 : 1));
  decode_layout(in, p, c.block_size, /*whole_blocks=*/false);

  size_t flip_at = 0;
  uint8_t flip_mask = 0;
  if (p.op == Operation::kHmac) {
    p.key = in.ConsumeBytes<uint8_t>(key_length(in, c.block_size));
  } else if (p.op == Operation::kFinup2x) {
    p.prefix_len = in.ConsumeIntegralInRange<size_t>(0, 2 * c.block_size + 2);
    // data2 is data1 with at most one byte changed: equal messages and
    // messages that differ late are both interesting.
    flip_at = in.ConsumeIntegral<uint16_t>();
    flip_mask = in.ConsumeIntegral<uint8_t>();
  }
  p.message = in.ConsumeRemainingBytes<uint8_t>();

  if (p.op == Operation::kFinup2x) {
    p.prefix_len = std::min(p.prefix_len, p.message.size());
    p.data2.assign(p.message.begin() + static_cast<ptrdiff_t>(p.prefix_len), p.message.end());
    if (!p.data2.empty()) p.data2[flip_at % p.data2.size()] ^= flip_mask;
  }
  return p;
}

}  // namespace lockstep::fuzz
