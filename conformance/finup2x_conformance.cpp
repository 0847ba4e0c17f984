// Finup2xConformance: the kernel's SHA-256-only finup_2x cases
// (lib/crypto/tests/sha256_kunit.c), for every backend of every algorithm
// that has finup_2x.
#include <cstdio>
#include <cstring>
#include <vector>

#include "backend_fixture.h"
#include "guarded_buffer.h"
#include "rounds.h"
#include "sha256/sha256.h"

namespace lockstep::conformance {
namespace {

class Finup2xConformance : public BackendTest {
 protected:
  // finish copies the context at `prefix` into `work`, absorbs `data` and
  // finalises: what finup_2x must give for one of its messages.
  Bytes finish(const RawCtx& prefix, RawCtx& work, const uint8_t* data, size_t len) {
    std::memcpy(work.get(), prefix.get(), prefix.size());
    alg().update(work.get(), data, len);
    Bytes out(digest_size());
    alg().final(work.get(), out.data());
    return out;
  }
};

INSTANTIATE_TEST_SUITE_P(All, Finup2xConformance, testing::ValuesIn(finup2x_params()),
                         HashParamName());

// Test that finup_2x gives the digests that update() and final() give on
// two copies of the context, and leaves the context unchanged: random
// prefix lengths up to two blocks (leaving a partial block, or none, in the
// context), random data lengths up to 16384 (the kernel's max_data_len)
// after the lengths where a 2-way path may start or stop handling the call
// (the kernel's 64..65536 bounds), with both inputs, both outputs and the
// context each flush against an unmapped page.
TEST_P(Finup2xConformance, Finup2x) {
  constexpr size_t kMaxData = 16384;
  const std::vector<size_t> edges = {0, 1, 63, 64, 65, 65535, 65536, 65537};
  const size_t ds = digest_size();
  const size_t cs = alg().ctx_size;
  GuardedBuffer data1_buf(edges.back(), "data1"), data2_buf(edges.back(), "data2"), out1_buf(ds, "out1"),
      out2_buf(ds, "out2"), ctx_buf(cs, "context");
  rng().fill(data1_buf.begin(), data1_buf.capacity());
  rng().fill(data2_buf.begin(), data2_buf.capacity());
  const Bytes prefix = rng().bytes(2 * block_size());
  void* const ctx = ctx_buf.tail_aligned(cs, alg().ctx_align);
  uint8_t* const out1 = out1_buf.tail(ds);
  uint8_t* const out2 = out2_buf.tail(ds);
  RawCtx orig(cs, alg().ctx_align), work(cs, alg().ctx_align);

  const int num_rounds = static_cast<int>(edges.size()) + rounds(500, 200);
  for (int round = 0; round < num_rounds; ++round) {
    const size_t prefix_len = rng().length(prefix.size());
    const size_t data_len =
        round < static_cast<int>(edges.size()) ? edges[round] : rng().length(kMaxData);
    const uint8_t* data1 = data1_buf.tail(data_len);
    const uint8_t* data2 = data2_buf.tail(data_len);
    CASE_TRACE(testing::Message()
                 << "round=" << round << " prefix_len=" << prefix_len << " data_len=" << data_len);

    alg().init(ctx, backend());
    alg().update(ctx, prefix.data(), prefix_len);
    std::memcpy(orig.get(), ctx, cs);
    alg().finup_2x(ctx, data1, data2, data_len, out1, out2, backend());
    EXPECT_EQ(std::memcmp(ctx, orig.get(), cs), 0)
        << label()
        << ": finup_2x modified its context: " << hex({static_cast<uint8_t*>(ctx), cs}, 256)
        << " was " << hex({orig.bytes(), cs}, 256);

    const Bytes want1 = finish(orig, work, data1, data_len);
    const Bytes want2 = finish(orig, work, data2, data_len);
    EXPECT_EQ(hex({out1, ds}), hex(want1)) << label() << ": first digest";
    EXPECT_EQ(hex({out2, ds}), hex(want2)) << label() << ": second digest";

    Bytes whole(prefix.begin(), prefix.begin() + static_cast<long>(prefix_len));
    whole.insert(whole.end(), data1, data1 + data_len);
    EXPECT_EQ(hex(want1), hex(expected_digest(whole)))
        << label() << ": update()+final() != expected";
    if (HasFailure()) break;
  }
}

// Test that finup_2x with no context (the empty prefix, hashed with the
// named backend) gives what it gives from a freshly initialised context,
// and the expected digests of the two messages (reference.h).
TEST_P(Finup2xConformance, Finup2xDefaultCtx) {
  const size_t ds = digest_size();
  const size_t b = block_size();
  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  for (const size_t len :
       {size_t{0}, size_t{1}, b - 9, b, 2 * b, 2 * b + 1, size_t{1000}, size_t{4096}}) {
    CASE_TRACE(testing::Message() << "data_len=" << len);
    const Bytes data = rng().bytes(2 * len);
    const uint8_t* data1 = data.data();
    const uint8_t* data2 = data.data() + len;
    Bytes a1(ds), a2(ds), b1(ds), b2(ds);
    alg().init(ctx.get(), backend());
    alg().finup_2x(ctx.get(), data1, data2, len, a1.data(), a2.data(), backend());
    alg().finup_2x(nullptr, data1, data2, len, b1.data(), b2.data(), backend());
    EXPECT_EQ(hex(b1), hex(a1)) << label() << ": first digest, null context vs initialised";
    EXPECT_EQ(hex(b2), hex(a2)) << label() << ": second digest, null context vs initialised";
    EXPECT_EQ(hex(b1), hex(expected_digest({data1, len})))
        << label() << ": first digest vs expected";
    EXPECT_EQ(hex(b2), hex(expected_digest({data2, len})))
        << label() << ": second digest vs expected";
  }
}

// Test that finup_2x encodes a total length beyond 32 bits (2^57 bytes and
// more) as update() and final() do: the context's byte count is set to
// 0x123456789abcd00 + align for align 0..63, and one buffer serves as both
// inputs and another as both outputs.
TEST_P(Finup2xConformance, Finup2xHugeLen) {
  const size_t ds = digest_size();
  const size_t cs = alg().ctx_size;
  ASSERT_LE(alg().bytecount_offset + sizeof(uint64_t), cs);
  RawCtx ctx(cs, alg().ctx_align), orig(cs, alg().ctx_align), work(cs, alg().ctx_align);
  for (const size_t data_len : {4 * block_size(), 3 * block_size() + 17}) {
    const Bytes data = rng().bytes(data_len);
    for (uint64_t align = 0; align < block_size(); ++align) {
      const uint64_t bytecount = 0x123456789abcd00 + align;
      CASE_TRACE(testing::Message() << "data_len=" << data_len << " align=" << align
                                      << " bytecount=0x" << std::hex << bytecount);
      alg().init(ctx.get(), backend());
      std::memcpy(ctx.bytes() + alg().bytecount_offset, &bytecount, sizeof bytecount);
      std::memcpy(orig.get(), ctx.get(), cs);
      Bytes out(ds);
      alg().finup_2x(ctx.get(), data.data(), data.data(), data_len, out.data(), out.data(),
                     backend());
      const Bytes want = finish(orig, work, data.data(), data_len);
      EXPECT_EQ(hex(out), hex(want)) << label() << ": finup_2x vs update()+final()";
    }
    if (HasFailure()) break;
  }
}

// Test that finup_2x_is_optimized() is true exactly for the backends that
// have a 2-way path of their own (a finup_2x in their descriptor), and
// report which ones do.
TEST_P(Finup2xConformance, Finup2xIsOptimized) {
  const Sha256Backend* typed = nullptr;
  for (const Sha256Backend* t : sha256::registry())
    if (static_cast<const Backend*>(t) == backend()) typed = t;
  ASSERT_NE(typed, nullptr) << backend()->name << " is not in the SHA-256 registry";
  const bool two_way = typed->finup_2x != nullptr;
  EXPECT_EQ(alg().finup_2x_is_optimized(backend()), two_way)
      << label() << ": finup_2x_is_optimized() disagrees with the descriptor";
  RecordProperty("finup_2x_optimized", two_way ? "yes" : "no");
  std::printf("%.*s: finup_2x %s\n", static_cast<int>(backend()->name.size()),
              backend()->name.data(),
              two_way ? "has a 2-way path" : "uses the sequential fallback");

  // And the path gives the right answer.
  const Bytes data = rng().bytes(2 * 300);
  Bytes o1(digest_size()), o2(digest_size());
  alg().finup_2x(nullptr, data.data(), data.data() + 300, 300, o1.data(), o2.data(), backend());
  EXPECT_EQ(hex(o1), hex(expected_digest({data.data(), 300}))) << label() << ": first digest";
  EXPECT_EQ(hex(o2), hex(expected_digest({data.data() + 300, 300})))
      << label() << ": second digest";
}

}  // namespace
}  // namespace lockstep::conformance
