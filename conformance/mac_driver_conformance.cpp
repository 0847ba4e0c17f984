// MacDriverConformance: a backend that is also HMAC with prepared keys
// (module.h's lockstep_mac_driver: a tree's library front end, its
// hmac_sha256_preparekey(), _init(), _update(), _final(), hmac_sha256()
// and the _usingrawkey forms), driven as the kernel's users drive it: a key
// prepared once and used for many messages, in contexts side by side, and
// left as it was. Every MAC is compared with reference.h's expected_hmac
// (the oracle's HMAC).
#include <cstring>
#include <deque>
#include <vector>

#include "abi/abi_check.h"
#include "backend_fixture.h"
#include "guarded_buffer.h"

namespace lockstep::conformance {
namespace {

class MacDriverConformance : public BackendTest {
 protected:
  const lockstep_mac_driver& driver() const { return *backend()->mac_driver; }
  // Storage as the kernel's users have it: 16-aligned, and not zeroed.
  static void* dirty(RawCtx& c) {
    std::memset(c.get(), 0xa5, c.size());
    return c.get();
  }

  // Each call counted for the backend, the callee-saved registers the
  // module's to keep (abi::call_preserving), as for every module call.
  void preparekey(void* key, std::span<const uint8_t> raw) {
    backend()->count_call();
    abi::call_preserving(driver().preparekey, &driver(), key, raw.data(), raw.size());
  }
  void init(void* desc, const void* key) {
    backend()->count_call();
    abi::call_preserving(driver().init, &driver(), desc, key);
  }
  void init_raw(void* desc, std::span<const uint8_t> raw) {
    backend()->count_call();
    abi::call_preserving(driver().init_usingrawkey, &driver(), desc, raw.data(), raw.size());
  }
  void update(void* desc, std::span<const uint8_t> data) {
    backend()->count_call();
    abi::call_preserving(driver().update, &driver(), desc, data.data(), data.size());
  }
  Bytes final(void* desc) {
    Bytes out(driver().mac_size);
    backend()->count_call();
    abi::call_preserving(driver().final, &driver(), desc, out.data());
    return out;
  }
  Bytes mac(const void* key, std::span<const uint8_t> data) {
    Bytes out(driver().mac_size);
    backend()->count_call();
    abi::call_preserving(driver().mac, &driver(), key, data.data(), data.size(), out.data());
    return out;
  }
  Bytes mac_raw(std::span<const uint8_t> raw, std::span<const uint8_t> data) {
    Bytes out(driver().mac_size);
    backend()->count_call();
    abi::call_preserving(driver().mac_usingrawkey, &driver(), raw.data(), raw.size(), data.data(), data.size(),
                         out.data());
    return out;
  }

  // The lengths each key is used for: empty, around a block, longer.
  std::vector<size_t> message_lengths() {
    const size_t b = block_size();
    return {0, 1, b - 1, b, b + 1, 1000, rng().length(16384)};
  }
};

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MacDriverConformance);
INSTANTIATE_TEST_SUITE_P(All, MacDriverConformance, testing::ValuesIn(mac_driver_params()), HashParamName());

}  // namespace

// Test one prepared key per length from 0 to two blocks and five bytes
// (empty, shorter than a block, a block, and longer keys, which are hashed
// down), each used for several messages in one call and in a context fed in
// two pieces; the key must come out of all of them as it went in.
TEST_P(MacDriverConformance, PreparedKeyManyMessages) {
  const size_t ks = driver().key_size;
  RawCtx key(ks, 16), desc(driver().desc_size, 16);
  dirty(key);
  dirty(desc);
  for (size_t key_len = 0; key_len <= 2 * block_size() + 5; ++key_len) {
    const Bytes raw = rng().bytes(key_len);
    preparekey(key.get(), raw);
    const Bytes prepared(key.bytes(), key.bytes() + ks);
    for (const size_t len : message_lengths()) {
      CASE_TRACE(testing::Message() << "key_len=" << key_len << " msg_len=" << len);
      const Bytes msg = rng().bytes(len);
      const Bytes want = expected_hmac(raw, msg);
      EXPECT_TRUE(same_bytes(mac(key.get(), msg), want)) << label() << ": one call, prepared key";
      const size_t cut = len == 0 ? 0 : rng().length(len);
      init(desc.get(), key.get());
      update(desc.get(), std::span(msg).first(cut));
      update(desc.get(), std::span(msg).subspan(cut));
      EXPECT_TRUE(same_bytes(final(desc.get()), want)) << label() << ": init, update at " << cut << ", final";
    }
    EXPECT_TRUE(same_bytes({key.bytes(), ks}, prepared))
        << label() << ": key_len=" << key_len << ": using the prepared key changed it";
    if (HasFailure()) return;
  }
}

// Test contexts side by side from one prepared key, as a kernel user with
// many requests under one key has them: each started from the key, their
// updates interleaved, each finished on its own; then one more from the
// same key. A front end that keeps the hash state in the key, or shares
// one between contexts, mixes the messages.
TEST_P(MacDriverConformance, ContextsSideBySide) {
  constexpr int kContexts = 3;
  for (const size_t key_len : {size_t{0}, size_t{16}, block_size(), 2 * block_size() + 1}) {
    const Bytes raw = rng().bytes(key_len);
    RawCtx key(driver().key_size, 16);
    preparekey(dirty(key), raw);
    std::deque<RawCtx> descs;
    std::vector<Bytes> msgs;
    for (int c = 0; c < kContexts; ++c) {
      descs.emplace_back(driver().desc_size, 16);
      msgs.push_back(rng().bytes(3 * block_size() + static_cast<size_t>(c) * 7));
      init(dirty(descs.back()), key.get());
    }
    // Block by block, each context in turn.
    for (size_t at = 0; at < msgs.back().size(); at += block_size())
      for (int c = 0; c < kContexts; ++c)
        if (at < msgs[c].size()) update(descs[c].get(), std::span(msgs[c]).subspan(at, std::min(block_size(), msgs[c].size() - at)));
    for (int c = 0; c < kContexts; ++c) {
      CASE_TRACE(testing::Message() << "key_len=" << key_len << " context " << c);
      EXPECT_TRUE(same_bytes(final(descs[c].get()), expected_hmac(raw, msgs[c])))
          << label() << ": context " << c << " of " << kContexts << " from one prepared key";
    }
    RawCtx again(driver().desc_size, 16);
    init(dirty(again), key.get());
    update(again.get(), msgs[0]);
    EXPECT_TRUE(same_bytes(final(again.get()), expected_hmac(raw, msgs[0])))
        << label() << ": key_len=" << key_len << ": a context from the key after the others finished";
    if (HasFailure()) return;
  }
}

// Test the raw-key forms, in one call and through a context, for keys
// around the block size, messages ending at an unmapped page.
TEST_P(MacDriverConformance, RawKey) {
  const size_t b = block_size();
  GuardedBuffer data(1000, "message");
  rng().fill(data.begin(), data.capacity());
  for (const size_t key_len : {size_t{0}, size_t{1}, b - 1, b, b + 1, 2 * b + 5}) {
    const Bytes raw = rng().bytes(key_len);
    for (const size_t len : {size_t{0}, b, size_t{1000}}) {
      CASE_TRACE(testing::Message() << "key_len=" << key_len << " msg_len=" << len);
      const std::span<const uint8_t> msg{data.tail(len), len};
      const Bytes want = expected_hmac(raw, msg);
      EXPECT_TRUE(same_bytes(mac_raw(raw, msg), want)) << label() << ": one call, raw key";
      RawCtx desc(driver().desc_size, 16);
      init_raw(dirty(desc), raw);
      update(desc.get(), msg);
      EXPECT_TRUE(same_bytes(final(desc.get()), want)) << label() << ": init with the raw key, update, final";
    }
    if (HasFailure()) return;
  }
}

}  // namespace lockstep::conformance
