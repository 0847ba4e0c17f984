// HMAC over each backend: the kernel's test_hmac, and the key lengths where
// RFC 2104's key handling changes.
#include <cstring>
#include <string>
#include <vector>

#include "hash_conformance.h"
#include "kernel_rules.h"
#include "oracle/oracle.h"
#include "vector_set.h"

namespace lockstep::conformance {

// Test the HMAC built on the hash, as the kernel's test_hmac does: for
// every data length 0..4096, with key length data_len % 293, the raw-key
// and prepared-key APIs agree (and agree with the oracle where this build
// has it); every MAC folded into one outer HMAC, keyed with the kernel's
// 32-byte key, gives the KernelConsolidated tag of the algorithm's HMAC
// vector file; and hmac_final() zeroises the outer context.
TEST_P(HashConformance, Hmac) {
  const std::string hmac_name = "hmac-" + std::string(alg().name);
  std::string from;
  const vectors::ConsolidatedTest* want = consolidated_value(hmac_name, &from);
  ASSERT_NE(want, nullptr) << "no KernelConsolidated vector for " << hmac_name << " in "
                           << vector_set().dir.string();
  const bool with_oracle = oracle_for(alg());
  RawCtx key(alg().hmac_key_size, alg().ctx_align);
  RawCtx ctx(alg().hmac_ctx_size, alg().ctx_align);
  Bytes mac2(digest_size());
  int reported = 0;

  const Consolidated got =
      consolidated_hmac(alg(), backend(), want->max_len, [&](const HmacStep& s) {
        if (reported >= 3) return;  // a few lengths are enough to see the pattern
        alg().hmac_prepare_key(key.get(), s.key.data(), s.key.size(), backend());
        alg().hmac_init(ctx.get(), key.get(), backend());
        alg().hmac_update(ctx.get(), s.data.data(), s.data.size());
        alg().hmac_final(ctx.get(), mac2.data());
        bool ok = mac2 == Bytes(s.mac.begin(), s.mac.end());
        EXPECT_TRUE(ok) << label() << ": data_len=" << s.data_len << " key_len=" << s.key.size()
                        << ": prepared key " << hex(mac2) << " != raw key " << hex(s.mac);
        if (with_oracle) {
          const Bytes o =
              oracle::hmac(alg().name, oracle::Source::kCryptoppPortable, s.key, s.data);
          const bool agree = o == Bytes(s.mac.begin(), s.mac.end());
          EXPECT_TRUE(agree) << label() << ": data_len=" << s.data_len
                             << " key_len=" << s.key.size() << ": " << hex(s.mac)
                             << " != cryptopp-portable " << hex(o);
          ok = ok && agree;
        }
        if (!ok) ++reported;
      });
  EXPECT_EQ(hex(got.value), hex(want->value))
      << label() << ": consolidated HMAC, max_len=" << want->max_len << ", expected from " << from
      << " tcId " << want->tc_id;
  EXPECT_TRUE(got.ctx_zeroized) << label() << ": hmac_final() left the context non-zero";
}

// Test HMAC at the key lengths where the key handling changes: empty, one
// byte short of a block, exactly a block, one byte over (the key is then
// hashed down) and several blocks, with messages around a block. The
// raw-key, prepared-key and incremental APIs must all give the expected
// MAC (reference.h).
TEST_P(HashConformance, HmacKeyLengths) {
  const size_t b = block_size();
  const std::vector<size_t> key_lens = {0, 1, b - 1, b, b + 1, 2 * b + 5, 293};
  const std::vector<size_t> msg_lens = {0, 1, b - 1, b, b + 1, 1000};
  RawCtx key(alg().hmac_key_size, alg().ctx_align);
  RawCtx ctx(alg().hmac_ctx_size, alg().ctx_align);
  Bytes got(digest_size());
  for (const size_t key_len : key_lens) {
    for (const size_t msg_len : msg_lens) {
      CASE_TRACE(testing::Message() << "key_len=" << key_len << " msg_len=" << msg_len);
      const Bytes k = rng().bytes(key_len);
      const Bytes m = rng().bytes(msg_len);
      const Bytes want = expected_hmac(k, m);
      EXPECT_EQ(hex(hmac(k, m)), hex(want)) << label() << ": raw-key one-shot";

      alg().hmac_prepare_key(key.get(), k.data(), key_len, backend());
      alg().hmac_init(ctx.get(), key.get(), backend());
      alg().hmac_update(ctx.get(), m.data(), msg_len / 2);
      alg().hmac_update(ctx.get(), m.data() + msg_len / 2, msg_len - msg_len / 2);
      alg().hmac_final(ctx.get(), got.data());
      EXPECT_EQ(hex(got), hex(want)) << label() << ": prepared key, two updates";

      alg().hmac_init_usingrawkey(ctx.get(), k.data(), key_len, backend());
      alg().hmac_update(ctx.get(), m.data(), msg_len);
      alg().hmac_final(ctx.get(), got.data());
      EXPECT_EQ(hex(got), hex(want)) << label() << ": hmac_init_usingrawkey";
    }
  }
}

}  // namespace lockstep::conformance
