// The data-shape cases of the kernel's hash-test-template.h: every length,
// incremental splits, guard pages, overlapping buffers, alignment and
// context zeroisation.
#include "hash_conformance.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "guarded_buffer.h"
#include "kernel_rules.h"
#include "oracle/oracle.h"
#include "rounds.h"
#include "vector_set.h"

namespace lockstep::conformance {
namespace {

std::string join(const std::vector<size_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "]";
}

// hash_split hashes `data` through `alg` with updates of the sizes in
// `parts` (which sum to `len`), into `out`, with the context at `ctx`.
void hash_split(const catalog::HashAlgorithm& alg, const Backend* b, void* ctx, const uint8_t* data,
                const std::vector<size_t>& parts, uint8_t* out) {
  alg.init(ctx, b);
  for (const size_t p : parts) {
    alg.update(ctx, data, p);
    data += p;
  }
  alg.final(ctx, out);
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(All, HashConformance, testing::ValuesIn(hash_params()), HashParamName());

// Test that the hash is right for every length from 0 to 4096 bytes. The
// digests of every prefix of the kernel's deterministic data are hashed
// together, and only that value is compared, with the KernelConsolidated
// value of the algorithm's vector file; when it differs, the first length
// at which the backend is wrong (reference.h) is reported.
TEST_P(HashConformance, AllLensUpTo4096) {
  std::string from;
  const vectors::ConsolidatedTest* want = consolidated_value(alg().name, &from);
  ASSERT_NE(want, nullptr) << "no KernelConsolidated vector for " << alg().name << " in "
                           << vector_set().dir.string();
  const Consolidated got = consolidated_hash(alg(), backend(), want->max_len);
  EXPECT_EQ(hex(got.value), hex(want->value))
      << label() << ": max_len=" << want->max_len << ", expected from " << from << " tcId "
      << want->tc_id;
  EXPECT_TRUE(got.ctx_zeroized) << label() << ": final() left the context non-zero";

  if (HasFailure()) {
    const Bytes data = vectors::kernel_data(want->max_len);
    for (size_t len = 0; len <= want->max_len; ++len) {
      const std::span<const uint8_t> msg(data.data(), len);
      if (digest(msg) != expected_digest(msg)) {
        ADD_FAILURE() << label() << ": first wrong length: len=" << len;
        break;
      }
    }
  }
}

// Test that hashing in pieces gives the one-shot digest: random total
// lengths up to 16384 (the kernel's TEST_BUF_LEN) at random offsets, split
// into random updates, zero-length ones included. Both must also equal the
// generic backend's digest and, where this build has it, the oracle's
// (Crypto++, portable mode).
TEST_P(HashConformance, IncrementalUpdates) {
  constexpr size_t kMaxLen = 16384;
  const bool with_oracle = oracle_for(alg());
  GuardedBuffer buf(kMaxLen, "data");
  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  Bytes inc(digest_size());

  for (int round = 0; round < rounds(1000, 300); ++round) {
    const size_t total_len = rng().length(kMaxLen);
    const size_t offset = rng().below(buf.capacity() - total_len + 1);
    uint8_t* data = buf.begin() + offset;
    rng().fill(data, total_len);
    const std::span<const uint8_t> msg(data, total_len);

    std::vector<size_t> parts;
    size_t remaining = total_len;
    while (rng().below(8) != 0) {
      const size_t part = rng().below(4) == 0 ? 0 : rng().length(remaining);
      parts.push_back(part);
      remaining -= part;
    }
    if (remaining != 0 || rng().coin()) parts.push_back(remaining);
    CASE_TRACE(testing::Message() << "round=" << round << " total_len=" << total_len
                                    << " offset=" << offset << " parts=" << join(parts));

    const Bytes one_shot = digest(msg);
    hash_split(alg(), backend(), ctx.get(), data, parts, inc.data());
    EXPECT_EQ(hex(inc), hex(one_shot)) << label() << ": incremental != one-shot";
    const Bytes generic = generic_digest(msg);
    if (with_oracle) {
      const Bytes o = oracle::digest(alg().name, oracle::Source::kCryptoppPortable, msg);
      EXPECT_EQ(hex(one_shot), hex(o)) << label() << ": one-shot != cryptopp-portable";
      EXPECT_EQ(hex(one_shot), hex(generic))
          << label() << ": one-shot != generic"
          << (o == one_shot ? " (cryptopp-portable agrees with " + std::string(backend()->name) +
                                  ": the generic backend is wrong)"
                            : "");
    } else {
      EXPECT_EQ(hex(one_shot), hex(generic)) << label() << ": one-shot != generic";
    }
    if (HasFailure()) break;  // one round tells the story
  }
}

// Test that the hash reads nothing past either end of its input, writes
// nothing past either end of the digest, and touches nothing outside the
// context: each sits flush against an unmapped page, after the data or
// before it, in one-shot and incremental use. Every length up to five
// blocks is tried, then random ones up to 16384 (the kernel's
// TEST_BUF_LEN) and 16384 itself; the results must also be right, not
// only fault-free.
TEST_P(HashConformance, BufferOverruns) {
  constexpr size_t kMaxLen = 16384;
  const size_t ds = digest_size();
  GuardedBuffer data_buf(kMaxLen, "data"), out_buf(ds, "digest"), ctx_buf(alg().ctx_size, "context"),
      hctx_buf(alg().hmac_ctx_size, "HMAC context");
  rng().fill(data_buf.begin(), data_buf.capacity());

  std::vector<size_t> lens;
  for (size_t len = 0; len <= 5 * block_size() + 1; ++len) lens.push_back(len);
  for (int i = 0; i < rounds(60, 20); ++i) lens.push_back(rng().length(kMaxLen));
  lens.push_back(kMaxLen);

  // The context flush against the trailing guard, and right after the
  // leading one.
  void* const ctx_places[] = {ctx_buf.tail_aligned(alg().ctx_size, alg().ctx_align),
                              ctx_buf.head(alg().ctx_size)};
  void* const hctx_places[] = {hctx_buf.tail_aligned(alg().hmac_ctx_size, alg().ctx_align),
                               hctx_buf.head(alg().hmac_ctx_size)};
  uint8_t* const out_places[] = {out_buf.tail(ds), out_buf.head(ds)};
  const uint8_t key[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};

  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  Bytes got(ds);
  for (const size_t len : lens) {
    for (const bool data_at_end : {true, false}) {
      const uint8_t* data = data_at_end ? data_buf.tail(len) : data_buf.head(len);
      const std::span<const uint8_t> msg(data, len);
      const size_t split = len ? rng().below(len + 1) : 0;
      CASE_TRACE(testing::Message()
                   << "len=" << len << " data " << (data_at_end ? "ends at" : "starts after")
                   << " a guard page, split=" << split);
      const Bytes want = expected_digest(msg);

      EXPECT_EQ(hex(digest(msg)), hex(want)) << label() << ": one-shot, data against the guard";
      hash_split(alg(), backend(), ctx.get(), data, {split, len - split}, got.data());
      EXPECT_EQ(hex(got), hex(want)) << label() << ": incremental, data against the guard";

      for (int place = 0; place < 2; ++place) {
        const char* where = place == 0 ? "before the trailing guard" : "after the leading guard";
        uint8_t* out = out_places[place];
        alg().digest(data, len, out, backend());
        EXPECT_EQ(hex({out, ds}), hex(want)) << label() << ": one-shot, digest " << where;
        hash_split(alg(), backend(), ctx_places[place], data, {split, len - split}, out);
        EXPECT_EQ(hex({out, ds}), hex(want))
            << label() << ": incremental, context and digest " << where;

        alg().hmac_init_usingrawkey(hctx_places[place], key, sizeof key, backend());
        alg().hmac_update(hctx_places[place], data, split);
        alg().hmac_update(hctx_places[place], data + split, len - split);
        alg().hmac_final(hctx_places[place], out);
        EXPECT_EQ(hex({out, ds}), hex(hmac(key, msg)))
            << label() << ": HMAC, context and tag " << where;
      }
    }
    if (HasFailure()) break;
  }
}

// Test that the caller may let the digest overwrite the input: the output
// of the one-shot call placed at input + k for k from before the start to
// near the end, the output of final() over the input already absorbed by
// update(), and the input rewritten between update() and final(). Each
// result must equal the digest computed without any overlap. Lengths are
// random up to 16384, the kernel's reach.
TEST_P(HashConformance, Overlaps) {
  constexpr size_t kMaxLen = 16384;
  const size_t ds = digest_size();
  const long d = static_cast<long>(ds);
  GuardedBuffer buf(kMaxLen + 2 * ds, "data and digest");
  RawCtx ctx(alg().ctx_size, alg().ctx_align);

  for (int round = 0; round < rounds(100, 40); ++round) {
    const size_t len = rng().length(kMaxLen);
    const size_t offset = ds + rng().below(buf.capacity() - 2 * ds - len + 1);
    uint8_t* const data = buf.begin() + offset;
    const Bytes msg = rng().bytes(len);
    const Bytes want = digest(msg);
    const long l = static_cast<long>(len);

    // k < 0: the digest starts before the input and runs into it;
    // 0 <= k <= len - ds: it lies inside; k > len - ds: it runs past the end.
    std::vector<long> ks = {
        -d + 1, -1, 0, 1, l - d, l - d + 1, l - 1, static_cast<long>(rng().below(len + 1)) - d / 2};
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    for (const long k : ks) {
      if (k <= -d || k >= l || (l == 0 && k >= 0)) continue;
      CASE_TRACE(testing::Message()
                   << "round=" << round << " len=" << len << " offset=" << offset << " k=" << k);
      uint8_t* const out = data + k;
      put(data, msg);
      alg().digest(data, len, out, backend());
      EXPECT_EQ(hex({out, ds}), hex(want)) << label() << ": one-shot, output = input + k";

      put(data, msg);
      alg().init(ctx.get(), backend());
      alg().update(ctx.get(), data, len);
      alg().final(ctx.get(), out);
      EXPECT_EQ(hex({out, ds}), hex(want)) << label() << ": final() output = input + k";
    }

    CASE_TRACE(testing::Message() << "round=" << round << " len=" << len << " offset=" << offset
                                    << " (input rewritten)");
    put(data, msg);
    alg().init(ctx.get(), backend());
    alg().update(ctx.get(), data, len);
    rng().fill(data, len);
    Bytes got(ds);
    alg().final(ctx.get(), got.data());
    EXPECT_EQ(hex(got), hex(want)) << label() << ": input rewritten between update() and final()";
    if (HasFailure()) break;
  }
}

// Test that the digest does not depend on where the data or the digest
// sit in memory: every data offset 0..127 and every digest offset 0..127,
// then random pairs of both, for lengths around block boundaries, 16384
// (the kernel's TEST_BUF_LEN) and random ones up to it; then, as the
// kernel's case does, random lengths up to 16384 each hashed at two random
// data offsets and two random digest offsets below 128, all alike.
TEST_P(HashConformance, AlignmentConsistency) {
  constexpr size_t kMaxLen = 16384;
  constexpr size_t kOffsets = 128;
  const size_t ds = digest_size();
  const size_t b = block_size();
  GuardedBuffer data_buf(kMaxLen + kOffsets, "data");
  Bytes out_buf(kOffsets + ds);

  std::vector<size_t> lens = {0, 1, b - 9, b - 1, b, b + 1, 2 * b + 7, 1000, kMaxLen};
  for (int i = 0; i < rounds(6, 2); ++i) lens.push_back(rng().length(kMaxLen));
  for (const size_t len : lens) {
    const Bytes msg = rng().bytes(len);
    const Bytes want = digest(msg);
    for (size_t off = 0; off < kOffsets; ++off) {
      put(data_buf.begin() + off, msg);
      alg().digest(data_buf.begin() + off, len, out_buf.data(), backend());
      EXPECT_EQ(hex({out_buf.data(), ds}), hex(want))
          << label() << ": len=" << len << " data_offset=" << off << " digest_offset=0";
      alg().digest(msg.data(), len, out_buf.data() + off, backend());
      EXPECT_EQ(hex({out_buf.data() + off, ds}), hex(want))
          << label() << ": len=" << len << " data_offset=0 digest_offset=" << off;
    }
    for (int i = 0; i < 16; ++i) {
      const size_t data_off = rng().below(kOffsets), out_off = rng().below(kOffsets);
      put(data_buf.begin() + data_off, msg);
      alg().digest(data_buf.begin() + data_off, len, out_buf.data() + out_off, backend());
      EXPECT_EQ(hex({out_buf.data() + out_off, ds}), hex(want))
          << label() << ": len=" << len << " data_offset=" << data_off
          << " digest_offset=" << out_off;
    }
    if (HasFailure()) return;
  }

  Bytes out_buf2(kOffsets + ds);
  for (int round = 0; round < rounds(100, 30); ++round) {
    const size_t len = rng().length(kMaxLen);
    const size_t off1 = rng().below(kOffsets), off2 = rng().below(kOffsets);
    const size_t out1 = rng().below(kOffsets), out2 = rng().below(kOffsets);
    CASE_TRACE(testing::Message() << "round=" << round << " len=" << len << " data offsets " << off1
                                    << ", " << off2 << " digest offsets " << out1 << ", " << out2);
    const Bytes msg = rng().bytes(len);
    put(data_buf.begin() + off1, msg);
    alg().digest(data_buf.begin() + off1, len, out_buf.data() + out1, backend());
    put(data_buf.begin() + off2, msg);
    alg().digest(data_buf.begin() + off2, len, out_buf2.data() + out2, backend());
    EXPECT_TRUE(same_bytes({out_buf2.data() + out2, ds}, {out_buf.data() + out1, ds}))
        << label() << ": the same message at two alignments";
    EXPECT_TRUE(same_bytes({out_buf.data() + out1, ds}, digest(msg)))
        << label() << ": against the digest of the message where the allocator put it";
    if (HasFailure()) return;
  }
}

// Test that nothing depends on where the caller's structures sit: the hash
// context, the HMAC context and the prepared HMAC key at every offset 0..63
// their 8-byte alignment allows (so 8 mod 16 and 8 mod 32 too, which a
// 16-byte-aligned allocator never hands out), each with the data, the key
// and the digest at offsets that run through 0..63 as well.
TEST_P(HashConformance, ContextPlacement) {
  constexpr size_t kSpan = 64;
  const size_t b = block_size(), ds = digest_size(), step = alg().ctx_align;
  const size_t lens[] = {0, 1, b - 9, b - 1, b, b + 1, 3 * b + 5, 1000};
  RawCtx ctx_buf(alg().ctx_size + kSpan, kSpan), hctx_buf(alg().hmac_ctx_size + kSpan, kSpan),
      key_buf(alg().hmac_key_size + kSpan, kSpan);
  RawCtx data_buf(1000 + kSpan, kSpan), raw_key_buf(2 * b + kSpan, kSpan), out_buf(ds + kSpan, kSpan);
  for (size_t ctx_off = 0; ctx_off < kSpan; ctx_off += step) {
    void* const ctx = ctx_buf.bytes() + ctx_off;
    void* const hctx = hctx_buf.bytes() + ctx_off;
    void* const key = key_buf.bytes() + ctx_off;
    for (size_t i = 0; i < kSpan; ++i) {
      const size_t data_off = i, out_off = (i * 11 + ctx_off) % kSpan, key_off = (i * 5 + 3) % kSpan;
      const size_t len = lens[(i + ctx_off / step) % std::size(lens)];
      const size_t key_len = i % 3 == 0 ? b + 1 : 20 + i % 7;  // hashed, or used as it is
      const Bytes msg = rng().bytes(len), raw_key = rng().bytes(key_len);
      uint8_t* const data = data_buf.bytes() + data_off;
      uint8_t* const raw = raw_key_buf.bytes() + key_off;
      uint8_t* const out = out_buf.bytes() + out_off;
      put(data, msg);
      put(raw, raw_key);
      const size_t split = rng().below(len + 1);
      CASE_TRACE(testing::Message() << "context offset " << ctx_off << " (mod 64), data offset " << data_off
                                      << ", digest offset " << out_off << ", key offset " << key_off
                                      << ", len=" << len << " split=" << split << " key_len=" << key_len);
      hash_split(alg(), backend(), ctx, data, {split, len - split}, out);
      EXPECT_TRUE(same_bytes({out, ds}, expected_digest(msg))) << label() << ": init/update/final";

      const Bytes want_mac = expected_hmac(raw_key, msg);
      alg().hmac_init_usingrawkey(hctx, raw, key_len, backend());
      alg().hmac_update(hctx, data, split);
      alg().hmac_update(hctx, data + split, len - split);
      alg().hmac_final(hctx, out);
      EXPECT_TRUE(same_bytes({out, ds}, want_mac)) << label() << ": HMAC with a raw key";
      alg().hmac_prepare_key(key, raw, key_len, backend());
      alg().hmac_init(hctx, key, backend());
      alg().hmac_update(hctx, data, len);
      alg().hmac_final(hctx, out);
      EXPECT_TRUE(same_bytes({out, ds}, want_mac)) << label() << ": HMAC with a prepared key";
      if (HasFailure()) return;
    }
  }
}

// Test that final() leaves every byte of the context zero, whatever was
// buffered, and that hmac_final() does the same for the HMAC context:
// neither message bytes nor key-derived state may outlive the call.
TEST_P(HashConformance, CtxZeroization) {
  const size_t b = block_size();
  const std::vector<size_t> lens = {0, 1, b - 9, b - 8, b - 1, b, b + 1, 2 * b - 9, 2 * b, 1000};
  const std::vector<size_t> key_lens = {0, 20, b, b + 1, 2 * b + 3};
  for (const size_t len : lens) {
    const Bytes msg = rng().bytes(len);
    Bytes out(digest_size());
    RawCtx ctx(alg().ctx_size, alg().ctx_align);
    alg().init(ctx.get(), backend());
    alg().update(ctx.get(), msg.data(), len);
    alg().final(ctx.get(), out.data());
    EXPECT_TRUE(all_zero(ctx.get(), ctx.size()))
        << label() << ": len=" << len
        << ": context after final(): " << hex({ctx.bytes(), ctx.size()}, 256);

    for (const size_t key_len : key_lens) {
      const Bytes key = rng().bytes(key_len);
      RawCtx hctx(alg().hmac_ctx_size, alg().ctx_align);
      alg().hmac_init_usingrawkey(hctx.get(), key.data(), key_len, backend());
      alg().hmac_update(hctx.get(), msg.data(), len);
      alg().hmac_final(hctx.get(), out.data());
      EXPECT_TRUE(all_zero(hctx.get(), hctx.size()))
          << label() << ": len=" << len << " key_len=" << key_len
          << ": HMAC context after hmac_final(): " << hex({hctx.bytes(), hctx.size()}, 512);
    }
    if (HasFailure()) break;
  }
}

}  // namespace lockstep::conformance
