// ChaCha20, ChaCha12 and XChaCha20 over every backend: the published and generated
// vectors, every length, in place and overlapping buffers, alignments,
// guard pages, counter continuity across calls and the 2^32 counter wrap.
// Outputs are compared whole; a failure names the first differing byte with
// a window of both sides (describe_mismatch), never hex cut at 64 bytes.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "chacha/chacha.h"
#include "guarded_buffer.h"
#include "rounds.h"
#include "vector_set.h"

namespace lockstep::conformance {
namespace {

class ChachaConformance : public CipherTest {
 protected:
  // A random key, nonce and message of `len` bytes.
  struct Input {
    Bytes key, nonce, msg;
  };
  Input input(size_t len) {
    return {rng().bytes(chacha::kKeySize), rng().bytes(alg().nonce_size), rng().bytes(len)};
  }

  // blocks is ceil(len / 64): the counter values a call of `len` consumes.
  static uint32_t blocks(size_t len) {
    return static_cast<uint32_t>((len + chacha::kBlockSize - 1) / chacha::kBlockSize);
  }

  // overlap_cases: the InPlace and Overlap tests (below them).
  template <class Shift>
  void overlap_cases(int count, Shift shift, bool held, const char* placement);
};

INSTANTIATE_TEST_SUITE_P(All, ChachaConformance, testing::ValuesIn(cipher_params()),
                         CipherParamName());

// fold hashes `data` into `acc` (SHA-256 through the generic backend, which
// is not under test here).
class Fold {
 public:
  Fold() : alg_(catalog::find_hash("sha256")), ctx_(alg_->ctx_size, alg_->ctx_align) {
    alg_->init(ctx_.get(), alg_->family->backends().back());
  }
  void add(std::span<const uint8_t> data) { alg_->update(ctx_.get(), data.data(), data.size()); }
  Bytes value() {
    Bytes out(alg_->digest_size);
    alg_->final(ctx_.get(), out.data());
    return out;
  }

 private:
  const catalog::HashAlgorithm* alg_;
  RawCtx ctx_;
};

}  // namespace

// Test the backend against every vector file of its algorithm (RFC 8439
// sections 2.3.2, 2.4.2, A.1 and A.2 for ChaCha20; draft-irtf-cfrg-xchacha
// for XChaCha20; generated files for each).
TEST_P(ChachaConformance, Vectors) {
  const VectorSet& set = vector_set();
  ASSERT_TRUE(set.errors.empty()) << set.errors.front();
  size_t run = 0;
  auto check = [&](const LoadedFile& f, const vectors::ChachaTest& t, const Bytes& got) {
    ++run;
    if (t.result == vectors::Result::kValid)
      EXPECT_TRUE(same_bytes(got, t.ct))
          << label() << ": " << f.display << " tcId " << t.tc_id << " (" << t.comment << ")";
    else
      EXPECT_FALSE(got == t.ct) << label() << ": " << f.display << " tcId " << t.tc_id << " ("
                                << t.comment << "): an invalid test matched";
  };
  for (const LoadedFile* f : set.named(alg().name)) {
    for (const vectors::ChachaTest& t : f->file.chacha) {
      Bytes got(t.msg.size());
      crypt(t.key, t.counter, t.nonce, got.data(), t.msg.data(), t.msg.size());
      // The files state the RFC 8439 wrap; a backend that declared the
      // carry is held to that, past the wrap, in CounterWrap instead.
      if (alg().carries(backend()) && wraps_past(t.counter, t.msg.size())) continue;
      check(*f, t, got);
    }
  }
  EXPECT_GT(run, 0u) << "no vector file for " << alg().name << " in " << set.dir.string();
  // A backend with a subkey derivation of its own (a module's hchacha) is
  // held to the subkey vectors on its XChaCha20 row, whose key it makes.
  if (alg().nonce_size == chacha::kXNonceSize) {
    for (const catalog::SubkeyAlgorithm* k : alg().family->subkeys) {
      for (const LoadedFile* f : set.named(k->name)) {
        for (const vectors::HChachaTest& t : f->file.hchacha) {
          if (t.key.size() != k->key_size || t.nonce.size() != k->input_size) continue;
          Bytes got(k->output_size);
          if (!k->derive_by(backend(), t.key.data(), t.nonce.data(), got.data())) break;
          if (t.result != vectors::Result::kValid) continue;
          EXPECT_TRUE(same_bytes(got, t.subkey))
              << label() << ": its own " << k->name << ", " << f->display << " tcId " << t.tc_id;
        }
      }
    }
  }
}

// Test every length from 0 to 4096: the outputs, each from a fresh state,
// are folded into one SHA-256 and compared with the reference's fold; on a
// mismatch the first wrong length is reported. The counter after each call
// must have advanced by ceil(len / 64).
TEST_P(ChachaConformance, AllLensUpTo4096) {
  constexpr size_t kMaxLen = 4096;
  const Input in = input(kMaxLen);
  Bytes out(kMaxLen);
  Fold got, want;
  for (size_t len = 0; len <= kMaxLen; ++len) {
    CASE_TRACE(testing::Message() << "len=" << len << " counter=7");
    const auto state = crypt(in.key, 7, in.nonce, out.data(), in.msg.data(), len);
    ASSERT_EQ(state[12], 7 + blocks(len)) << label() << ": counter after len=" << len;
    got.add({out.data(), len});
    want.add(expected(in.key, 7, in.nonce, {in.msg.data(), len}));
  }
  const Bytes g = got.value(), w = want.value();
  EXPECT_TRUE(same_bytes(g, w)) << label() << ": SHA-256 of the outputs for len 0.." << kMaxLen;
  if (g != w) {
    for (size_t len = 0; len <= kMaxLen; ++len) {
      crypt(in.key, 7, in.nonce, out.data(), in.msg.data(), len);
      if (Bytes(out.begin(), out.begin() + len) != expected(in.key, 7, in.nonce, {in.msg.data(), len})) {
        ADD_FAILURE() << label() << ": first wrong length: len=" << len;
        break;
      }
    }
  }
}

// The overlap cases: `count` messages of random length up to 1100 bytes,
// each encrypted from src = buf + shift() to dst = buf (0: in place). A
// backend is held to every placement its declared contract (module.h's
// chacha_overlap) covers, which for lockstep's own backends is all of them.
// Outside it the cases still run, but the backend is not held to them: the
// test ends in a SKIP whose reason says so and how the backend fared there,
// counted apart in the matrix and shown in the log, never a failure.
template <class Shift>
void ChachaConformance::overlap_cases(int count, Shift shift, bool held, const char* placement) {
  size_t wrong = 0;
  std::string first;
  for (int r = 0; r < count; ++r) {
    const size_t len = rng().length(1100);
    const size_t k = shift();
    const Input in = input(len);
    const Bytes want = expected(in.key, 9, in.nonce, in.msg);
    Bytes buf(len + k);
    put(buf.data() + k, in.msg);
    CASE_TRACE(testing::Message() << "len=" << len << " dst = src - " << k << " counter=9");
    crypt(in.key, 9, in.nonce, buf.data(), buf.data() + k, len);
    const std::span<const uint8_t> got(buf.data(), len);
    if (held) {
      EXPECT_TRUE(same_bytes(got, want)) << label() << ": len=" << len << " dst = src - " << k;
      if (HasFailure()) return;
    } else if (!std::equal(got.begin(), got.end(), want.begin(), want.end()) && wrong++ == 0) {
      first = "len=" + std::to_string(len) + " dst = src - " + std::to_string(k);
    }
  }
  if (held) return;
  const char* contract = alg().overlap(backend()) == LOCKSTEP_OVERLAP_NONE
                             ? "no overlap (LOCKSTEP_OVERLAP_NONE: dst and src apart)"
                             : "in-place only (LOCKSTEP_OVERLAP_INPLACE: dst == src, or apart)";
  const std::string why =
      "outside its declared contract: " + label() + " declares " + contract + ", and " + placement +
      " is not in it; not held to it there: " +
      (wrong == 0 ? "all " + std::to_string(count) + " cases gave the reference's bytes anyway"
                  : std::to_string(wrong) + " of " + std::to_string(count) +
                        " cases differ from the reference, the first at " + first);
  RecordProperty("skip_reason", why);
  GTEST_SKIP() << why;
}

// Test in place (dst == src), which every backend handles but one that
// declared no overlap at all (LOCKSTEP_OVERLAP_NONE).
TEST_P(ChachaConformance, InPlace) {
  overlap_cases(rounds(100, 20), [] { return size_t{0}; },
                alg().overlap(backend()) != LOCKSTEP_OVERLAP_NONE, "dst == src");
}

// Test dst overlapping src from below at small offsets (dst = src - k, k =
// 1..69), which lockstep's own backends and every module that declared
// nothing else (LOCKSTEP_OVERLAP_ANY) handle; dst above src with overlap is
// allowed to none and not tested.
TEST_P(ChachaConformance, Overlap) {
  overlap_cases(rounds(300, 60), [this] { return 1 + rng().below(69); },
                alg().overlap(backend()) == LOCKSTEP_OVERLAP_ANY,
                "dst below src with overlap (dst = src - k)");
}

// Test every alignment 0..127 of src and of dst, each with the other
// aligned and with both misaligned together.
TEST_P(ChachaConformance, Alignment) {
  constexpr size_t kOffsets = 128;
  Bytes src_buf(2048 + kOffsets), dst_buf(2048 + kOffsets);
  for (size_t off = 0; off < kOffsets; ++off) {
    for (const auto& [so, dof] : {std::pair{off, size_t{0}}, std::pair{size_t{0}, off},
                                  std::pair{off, (off * 7) % kOffsets}}) {
      const size_t len = rng().length(2048);
      const Input in = input(len);
      put(src_buf.data() + so, in.msg);
      CASE_TRACE(testing::Message() << "len=" << len << " src offset " << so << " dst offset " << dof);
      crypt(in.key, 3, in.nonce, dst_buf.data() + dof, src_buf.data() + so, len);
      EXPECT_TRUE(same_bytes({dst_buf.data() + dof, len}, expected(in.key, 3, in.nonce, in.msg)))
          << label() << ": len=" << len << " src offset " << so << " dst offset " << dof;
    }
    if (HasFailure()) break;
  }
}

// Test that the state words may sit anywhere their 4-byte alignment allows
// (every offset 0..60 mod 64, so 4, 8 and 12 mod 16 too), with the key,
// nonce, src and dst moving through 0..63 alongside; after the call the
// counter word must have advanced as usual.
TEST_P(ChachaConformance, StatePlacement) {
  constexpr size_t kSpan = 64;
  RawCtx state_buf(16 * 4 + kSpan, kSpan), key_buf(chacha::kKeySize + kSpan, kSpan),
      nonce_buf(alg().nonce_size + kSpan, kSpan), src_buf(700 + kSpan, kSpan), dst_buf(700 + kSpan, kSpan);
  for (size_t state_off = 0; state_off < kSpan; state_off += 4) {
    for (size_t i = 0; i < kSpan; i += 3) {
      const size_t key_off = i, nonce_off = (i * 7 + 1) % kSpan, src_off = (i * 5 + state_off) % kSpan,
                   dst_off = (i * 13 + 2) % kSpan;
      const size_t len = (i * 97 + state_off * 11) % 700;
      const Input in = input(len);
      put(key_buf.bytes() + key_off, in.key);
      put(nonce_buf.bytes() + nonce_off, in.nonce);
      put(src_buf.bytes() + src_off, in.msg);
      CASE_TRACE(testing::Message() << "state offset " << state_off << " (mod 64), key offset " << key_off
                                      << ", nonce offset " << nonce_off << ", src offset " << src_off
                                      << ", dst offset " << dst_off << ", len=" << len << ", counter 11");
      auto* const state = reinterpret_cast<uint32_t*>(state_buf.bytes() + state_off);
      alg().init(state, key_buf.bytes() + key_off, 11, nonce_buf.bytes() + nonce_off);
      alg().crypt(state, dst_buf.bytes() + dst_off, src_buf.bytes() + src_off, len, backend());
      ASSERT_TRUE(same_bytes({dst_buf.bytes() + dst_off, len}, expected(in.key, 11, in.nonce, in.msg))) << label();
      ASSERT_EQ(state[12], 11 + blocks(len)) << label() << ": counter after the call";
    }
  }
}

// Test that no byte outside [src, src + len) is read and none outside
// [dst, dst + len) written: src and dst end at a guard page (and start at
// one), for every length up to 17 blocks plus a few, and len 0 with both
// pointers at the guard.
TEST_P(ChachaConformance, GuardPages) {
  constexpr size_t kMaxLen = 17 * 64 + 3;
  GuardedBuffer src(kMaxLen, "src"), dst(kMaxLen, "dst");
  const Input in = input(kMaxLen);
  for (size_t len = 0; len <= kMaxLen; ++len) {
    const Bytes want = expected(in.key, 1, in.nonce, {in.msg.data(), len});
    for (const bool at_end : {true, false}) {
      uint8_t* s = at_end ? src.tail(len) : src.head(len);
      uint8_t* d = at_end ? dst.tail(len) : dst.head(len);
      CASE_TRACE(testing::Message() << "len=" << len
                                    << (at_end ? " src and dst end at their guard pages" : " src and dst start after their guard pages"));
      put(s, {in.msg.data(), len});
      crypt(in.key, 1, in.nonce, d, s, len);
      ASSERT_TRUE(same_bytes({d, len}, want))
          << label() << ": len=" << len << (at_end ? " against the trailing guards" : " after the leading guards");
      // In place against the guard, where the backend declared it handles it.
      if (alg().overlap(backend()) == LOCKSTEP_OVERLAP_NONE) continue;
      put(s, {in.msg.data(), len});
      crypt(in.key, 1, in.nonce, s, s, len);
      ASSERT_TRUE(same_bytes({s, len}, want)) << label() << ": in place, len=" << len;
    }
  }
}

// Test counter continuity: one call over a long message equals any split
// of it into calls whose lengths are whole blocks (the last one need not
// be), each continuing from the state the previous call left. A split at a
// partial block consumes that block's counter: the next call starts at the
// following block, not mid-block.
TEST_P(ChachaConformance, SplitsContinueTheStream) {
  for (int r = 0; r < rounds(100, 25); ++r) {
    const size_t len = rng().below(40 * 64);
    const Input in = input(len);
    const uint32_t counter = r % 2 ? rng().u32() : 0;  // odd rounds may cross 2^32
    const Bytes want = expected(in.key, counter, in.nonce, in.msg);
    CASE_TRACE(testing::Message() << "len=" << len << " counter=" << counter << " (random splits)");

    std::array<uint32_t, 16> state;
    alg().init(state.data(), in.key.data(), counter, in.nonce.data());
    Bytes got(len);
    std::vector<size_t> parts;
    for (size_t done = 0; done < len;) {
      size_t n = 64 * rng().below(20);
      if (n > len - done || rng().below(8) == 0) n = len - done;
      alg().crypt(state.data(), got.data() + done, in.msg.data() + done, n, backend());
      parts.push_back(n);
      done += n;
    }
    ASSERT_TRUE(same_bytes(got, want)) << label() << ": len=" << len << " counter=" << counter
                                       << " in " << parts.size() << " calls";
    ASSERT_EQ(state[12], counter + blocks(len)) << label() << ": counter after the calls";
  }
  // A partial block consumes its counter value.
  const Input in = input(200);
  std::array<uint32_t, 16> state;
  alg().init(state.data(), in.key.data(), 0, in.nonce.data());
  Bytes a(100), b(100);
  alg().crypt(state.data(), a.data(), in.msg.data(), 100, backend());  // blocks 0 and 1
  EXPECT_EQ(state[12], 2u);
  alg().crypt(state.data(), b.data(), in.msg.data() + 100, 100, backend());  // blocks 2 and 3
  const Bytes whole = expected(in.key, 0, in.nonce, Bytes(256, 0));
  Bytes want_b(100);
  for (size_t i = 0; i < 100; ++i) want_b[i] = in.msg[100 + i] ^ whole[128 + i];
  EXPECT_TRUE(same_bytes(b, want_b)) << label() << ": the call after a 100-byte call must start at block 2";
}

// Test the counter wrap: starting at 2^32 - k for k = 1..17, calls of 1, 2,
// 4, 8, 16, 17 and 33 blocks (and one byte short of each) wrap to 0 without
// carrying into the nonce, and the state says so afterwards. A module backend
// that declared OpenSSL EVP's carry is held to that instead; one that
// carries without saying so fails with a message that says so.
TEST_P(ChachaConformance, CounterWrap) {
  const bool carries = alg().carries(backend());
  for (uint32_t k = 1; k <= 17; ++k) {
    const uint32_t counter = 0u - k;
    for (const size_t nblocks : {1, 2, 4, 8, 16, 17, 33}) {
      for (const size_t len : {64 * nblocks, 64 * nblocks - 1}) {
        const Input in = input(len);
        Bytes got(len);
        CASE_TRACE(testing::Message() << "counter 2^32-" << k << ", len=" << len);
        const auto state = crypt(in.key, counter, in.nonce, got.data(), in.msg.data(), len);
        const Bytes want = expected(in.key, counter, in.nonce, in.msg);
        if (!carries && got != want &&
            got == expected_chacha_carrying(alg(), in.key, counter, in.nonce, in.msg))
          FAIL() << label() << ": counter wrap: from counter 2^32-" << k << " over " << len
                 << " bytes the backend carried block counter 2^32-1 into word 13 (OpenSSL EVP's "
                    "semantics) instead of wrapping to 0 as RFC 8439 and the kernel do; a module "
                    "whose counter carries by design declares LOCKSTEP_COUNTER_CARRY64";
        ASSERT_TRUE(same_bytes(got, want)) << label() << ": counter 2^32-" << k << ", len=" << len;
        EXPECT_EQ(state[12], counter + blocks(len)) << label() << ": counter 2^32-" << k;
        std::array<uint32_t, 16> fresh;
        alg().init(fresh.data(), in.key.data(), counter, in.nonce.data());
        if (carries && wraps_past(counter, len)) ++fresh[13];
        EXPECT_TRUE(std::equal(state.begin() + 13, state.end(), fresh.begin() + 13))
            << label() << ": counter wrap: word 13 after the call is " << state[13] << ", want "
            << fresh[13] << (carries ? " (the declared carry)" : " (no carry into the nonce)");
      }
    }
  }
}

// Test len 0: nothing written, the counter unchanged.
TEST_P(ChachaConformance, ZeroLength) {
  const Input in = input(0);
  uint8_t canary[4] = {1, 2, 3, 4};
  const auto state = crypt(in.key, 5, in.nonce, canary, canary, 0);
  EXPECT_EQ(state[12], 5u);
  EXPECT_EQ(canary[0], 1);
  EXPECT_EQ(canary[3], 4);
}

// Test HChaCha20 (the catalog's subkey algorithms) against its vector
// files: it has one implementation, the front end's; XChaCha20 through every
// backend is in Vectors above.
TEST(HChacha, Vectors) {
  const VectorSet& set = vector_set();
  const catalog::SubkeyAlgorithm* hchacha = catalog::find_subkey("hchacha20");
  ASSERT_NE(hchacha, nullptr);
  size_t run = 0;
  for (const LoadedFile* f : set.named(hchacha->name)) {
    for (const vectors::HChachaTest& t : f->file.hchacha) {
      uint8_t subkey[32];
      ASSERT_EQ(t.key.size(), hchacha->key_size) << f->display << " tcId " << t.tc_id;
      ASSERT_EQ(t.nonce.size(), hchacha->input_size) << f->display << " tcId " << t.tc_id;
      hchacha->derive(t.key.data(), t.nonce.data(), subkey);
      if (t.result == vectors::Result::kValid)
        EXPECT_TRUE(same_bytes({subkey, 32}, t.subkey)) << f->display << " tcId " << t.tc_id;
      else
        EXPECT_FALSE(Bytes(subkey, subkey + 32) == t.subkey)
            << f->display << " tcId " << t.tc_id << ": an invalid test matched";
      ++run;
    }
  }
  EXPECT_GT(run, 0u) << "no HChaCha20 vector file in " << set.dir.string();
}

}  // namespace lockstep::conformance
