// Byte counts no test message can reach: the context's count is seeded above
// 2^32 and near 2^61 (where the bit count leaves 64 bits and SHA-512's
// 128-bit length field gets a non-zero high word), then a short tail is
// hashed through init/update/final and finup_2x. The answer comes from an
// independent padding computation here: the tail, 0x80, zeros and the
// big-endian bit count, written out byte by byte and compressed by the
// generic block function (which the oracle checks everywhere else).
#include <cstring>
#include <string>
#include <vector>

#include "hash_conformance.h"
#include "sha256/sha256.h"
#include "sha512/sha512.h"

namespace lockstep::conformance {
namespace {

// SHA-256's length field holds the bit count mod 2^64, which is all the
// standard defines (messages below 2^61 bytes); SHA-512's holds 128 bits.
using u128 = unsigned __int128;

// padded_finish is the digest of a context whose state words and buffered
// bytes are those of `ctx` and whose byte count is `count`, after `data`:
// the padding written out by hand, not the front end's.
template <class F>
Bytes padded_finish(const sha2::HashBackend<F>& generic, const uint8_t* ctx, size_t buf_offset,
                    uint64_t count, std::span<const uint8_t> data, size_t digest_size) {
  constexpr size_t B = F::kBlockSize, L = F::kLengthFieldSize;
  sha2::BlockState<F> state;
  std::memcpy(&state, ctx, sizeof state);
  Bytes tail(ctx + buf_offset, ctx + buf_offset + count % B);
  tail.insert(tail.end(), data.begin(), data.end());
  const u128 bits = (u128{count} + data.size()) * 8;
  tail.push_back(0x80);
  while ((tail.size() + L) % B != 0) tail.push_back(0);
  for (size_t i = L; i-- > 0;) tail.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  generic.blocks(&state, tail.data(), tail.size() / B);
  Bytes out;
  for (const auto w : state.h)
    for (size_t i = sizeof w; i-- > 0;) out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  out.resize(digest_size);
  return out;
}

class HugeByteCount : public HashConformance {
 protected:
  size_t buf_offset() const { return alg().bytecount_offset + sizeof(uint64_t); }

  // reference is padded_finish for this algorithm's family.
  Bytes reference(const uint8_t* ctx, uint64_t count, std::span<const uint8_t> data) const {
    if (alg().family->name == sha2::Sha256Family::kName)
      return padded_finish(kSha256Generic, ctx, buf_offset(), count, data, digest_size());
    return padded_finish(kSha512Generic, ctx, buf_offset(), count, data, digest_size());
  }

  // seed initialises `ctx` for `b` and makes it claim `count` bytes, the
  // last count % B of them buffered (random bytes).
  void seed(void* ctx, const Backend* b, uint64_t count, const Bytes& buffered) {
    alg().init(ctx, b);
    auto* bytes = static_cast<uint8_t*>(ctx);
    std::memcpy(bytes + alg().bytecount_offset, &count, sizeof count);
    std::memcpy(bytes + buf_offset(), buffered.data(), count % block_size());
  }

  // blame says whom a wrong digest points at: when every usable backend of
  // the family gives the same wrong digest, the front end, which they share.
  std::string blame(const Bytes& got, uint64_t count, const Bytes& buffered, std::span<const uint8_t> data,
                    bool finup) {
    std::string agree;
    for (const Backend* b : alg().family->backends()) {
      if (!b->usable(cpu::effective())) continue;
      RawCtx ctx(alg().ctx_size, alg().ctx_align);
      seed(ctx.get(), b, count, buffered);
      Bytes out(digest_size()), other(digest_size());
      if (finup) {
        alg().finup_2x(ctx.get(), data.data(), data.data(), data.size(), out.data(), other.data(), b);
      } else {
        alg().update(ctx.get(), data.data(), data.size());
        alg().final(ctx.get(), out.data());
      }
      if (out != got) return label() + " (other backends differ from it)";
      agree += (agree.empty() ? "" : ", ") + std::string(b->name);
    }
    return "the front end (impl/sha2/frontend.h): every backend (" + agree + ") gives the same wrong digest";
  }
};

INSTANTIATE_TEST_SUITE_P(All, HugeByteCount, testing::ValuesIn(hash_params()), HashParamName());

// Test the length field at byte counts past 32 bits and, for the SHA-512
// family, past 2^61, for tails that end on either side of the block where
// the length field no longer fits, with the seeded count leaving bytes
// buffered or none. finup_2x, where the algorithm has it, must agree too.
TEST_P(HugeByteCount, LengthFieldMatchesIndependentPadding) {
  const uint64_t b = block_size(), lf = alg().family->name == sha2::Sha256Family::kName ? 8 : 16;
  std::vector<uint64_t> counts = {(1ull << 32) - 5, 1ull << 32, (1ull << 32) + 3 * b + 7, 0x123456789abcd00ull,
                                  (1ull << 61) - 2 * b, (1ull << 61) - 3};
  if (lf == 16) {
    for (const uint64_t c : {1ull << 61, (1ull << 61) + b + 1, (1ull << 63) + 5}) counts.push_back(c);
  }
  const std::vector<size_t> lens = {0, 1, b - lf - 2, b - lf - 1, b - lf, b - 1, b, b + 1, 2 * b + lf, 5 * b + 3};
  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  for (const uint64_t count : counts) {
    const Bytes buffered = rng().bytes(b);
    for (const size_t len : lens) {
      const Bytes data = rng().bytes(len);
      seed(ctx.get(), backend(), count, buffered);
      const Bytes want = reference(ctx.bytes(), count, data);
      CASE_TRACE(testing::Message() << "byte count seeded to 0x" << std::hex << count << std::dec << " ("
                                      << count % b << " bytes buffered), then len=" << len);
      const size_t split = len / 3;
      alg().update(ctx.get(), data.data(), split);
      alg().update(ctx.get(), data.data() + split, len - split);
      Bytes got(digest_size());
      alg().final(ctx.get(), got.data());
      EXPECT_TRUE(same_bytes(got, want))
          << "init/update/final: " << (got == want ? "" : blame(got, count, buffered, data, false));
      if (alg().finup_2x) {
        seed(ctx.get(), backend(), count, buffered);
        Bytes out1(digest_size()), out2(digest_size());
        alg().finup_2x(ctx.get(), data.data(), data.data(), len, out1.data(), out2.data(), backend());
        EXPECT_TRUE(same_bytes(out1, want))
            << "finup_2x, first digest: " << (out1 == want ? "" : blame(out1, count, buffered, data, true));
        EXPECT_TRUE(same_bytes(out2, want)) << label() << ": finup_2x, second digest";
      }
      if (HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace lockstep::conformance
