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

}  // namespace

Program decode_hash(const uint8_t* data, size_t size, const HashChoices& c) {
  // Integers are taken from the end of the input and bytes from the front,
  // so mutations of the message do not reshuffle the parameters.
  FuzzedDataProvider in(data, size);
  Program p;
  p.algorithm = std::string(c.algorithms[in.ConsumeIntegralInRange<size_t>(0, c.algorithms.size() - 1)]);
  p.op = static_cast<Operation>(in.ConsumeIntegralInRange<int>(0, c.finup_2x ? 2 : 1));
  p.in_offset = in.ConsumeIntegralInRange<size_t>(0, 127);
  p.out_offset = in.ConsumeIntegralInRange<size_t>(0, 127);
  p.ctx_offset = 8 * in.ConsumeIntegralInRange<size_t>(0, 15);
  p.overlap = static_cast<Overlap>(in.ConsumeIntegralInRange<int>(0, 2));
  const size_t nsplits = in.ConsumeIntegralInRange<size_t>(0, 8);
  for (size_t i = 0; i < nsplits; ++i) p.splits.push_back(split_size(in, c.block_size));

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
