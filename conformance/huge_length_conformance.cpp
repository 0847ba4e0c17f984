// Byte counts no test message can reach: the context's count is seeded above
// 2^32 and near 2^61 (where the bit count leaves 64 bits and SHA-512's
// 128-bit length field gets a non-zero high word), then a short tail is
// hashed through init/update/final and finup_2x. Only messages the
// algorithm defines are judged: SHA-256's is shorter than 2^64 bits
// (2^61 bytes), SHA-512's than 2^128 (beyond any 64-bit count); past
// SHA-256's limit the results are reported as information, never failed. The answer comes from an
// independent padding computation (impl/sha2/length_reference.h): the tail,
// 0x80, zeros and the big-endian bit count, written out byte by byte and
// compressed by the generic block function (which the oracle checks
// everywhere else).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hash_conformance.h"
#include "sha2/length_reference.h"
#include "sha256/sha256.h"

namespace lockstep::conformance {
namespace {

class HugeByteCount : public HashConformance {
 protected:
  // The longest message the algorithm defines, in bytes (FIPS 180-4:
  // SHA-256's is under 2^64 bits, SHA-512's under 2^128).
  uint64_t max_message() const {
    return alg().family->name == sha2::Sha256Family::kName ? (1ull << 61) - 1 : UINT64_MAX;
  }

  size_t buf_offset() const { return alg().bytecount_offset + sizeof(uint64_t); }

  Bytes reference(const uint8_t* ctx, uint64_t count, std::span<const uint8_t> data) const {
    return sha2::finish_at_count(alg(), ctx, count, data);
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
                                  (1ull << 61) - 6 * b, (1ull << 61) - 2 * b, (1ull << 61) - 3};
  if (lf == 16) {
    for (const uint64_t c : {1ull << 61, (1ull << 61) + b + 1, (1ull << 63) + 5}) counts.push_back(c);
  }
  const std::vector<size_t> lens = {0, 1, b - lf - 2, b - lf - 1, b - lf, b - 1, b, b + 1, 2 * b + lf, 5 * b + 3};
  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  for (const uint64_t count : counts) {
    const Bytes buffered = rng().bytes(b);
    for (const size_t len : lens) {
      if (len > max_message() - count) continue;  // beyond the algorithm: BeyondTheLimitIsInformation
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

// Past SHA-256's limit (messages of 2^61 bytes and more) nothing is
// defined: a front end that wraps the bit count mod 2^64 and one that does
// something else are both within the standard. What lockstep's front end
// and finup_2x give there is printed beside the mod-2^64 padding; the test
// requires only that each answer is deterministic, and never fails on the
// digest itself.
TEST_P(HugeByteCount, BeyondTheLimitIsInformation) {
  if (max_message() == UINT64_MAX) GTEST_SKIP() << alg().display << "'s limit (2^128 bits) is beyond a 64-bit count";
  const uint64_t b = block_size();
  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  size_t agree = 0, differ = 0;
  for (const uint64_t count : {(1ull << 61) - 3, 1ull << 61, (1ull << 61) + b + 1, (1ull << 63) + 5}) {
    const Bytes buffered = rng().bytes(b), data = rng().bytes(b + 7);
    auto once = [&](bool finup) {
      seed(ctx.get(), backend(), count, buffered);
      Bytes out(digest_size()), other(digest_size());
      if (finup) {
        alg().finup_2x(ctx.get(), data.data(), data.data(), data.size(), out.data(), other.data(), backend());
      } else {
        alg().update(ctx.get(), data.data(), data.size());
        alg().final(ctx.get(), out.data());
      }
      return out;
    };
    seed(ctx.get(), backend(), count, buffered);
    const Bytes wrapped = reference(ctx.bytes(), count, data);
    for (const bool finup : {false, true}) {
      if (finup && !alg().finup_2x) continue;
      const Bytes got = once(finup);
      EXPECT_EQ(hex(got), hex(once(finup))) << label() << ": two runs of the same out-of-spec message differ";
      (got == wrapped ? agree : differ) += 1;
    }
  }
  std::printf("[ NOTE     ] %s: out of spec (messages of 2^61 bytes and more): %zu answers equal the bit count "
              "taken mod 2^64, %zu differ (either is within the standard)\n",
              label().c_str(), agree, differ);
}

}  // namespace
}  // namespace lockstep::conformance
