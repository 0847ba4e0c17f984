// DriverHashConformance: a backend that is also a whole-message driver
// (module.h's lockstep_hash_driver: a kernel glue's shash, through the
// crypto API model) driven as the kernel's testmgr drives one: digest,
// init/update/final and init/finup at every length, split at every
// boundary, export and import into a fresh descriptor part way, empty
// updates and an empty message, data and digests misaligned and flush
// against an unmapped page. Every digest is compared with reference.h's.
#include <cstring>
#include <vector>

#include "abi/abi_check.h"
#include "backend_fixture.h"
#include "guarded_buffer.h"
#include "rounds.h"

namespace lockstep::conformance {
namespace {

class DriverHashConformance : public BackendTest {
 protected:
  const lockstep_hash_driver& driver() const { return *backend()->hash_driver; }

  // A descriptor as the kernel allocates one, and not zeroed (a driver
  // must not rely on what init does not set); fresh() makes it so again.
  RawCtx new_desc() const { return RawCtx(driver().desc_size, 16); }
  static void* fresh(RawCtx& d) {
    std::memset(d.get(), 0xa5, d.size());
    return d.get();
  }

  // call runs one driver function, counted for the backend and checked
  // for its return value; the callee-saved registers are the module's to
  // keep (abi::call_preserving), as for every module call.
  template <class... Args>
  void call(const char* what, int (*fn)(const lockstep_hash_driver*, Args...),
            std::type_identity_t<Args>... args) {
    backend()->count_call();
    const int rc = abi::call_preserving(fn, &driver(), args...);
    EXPECT_EQ(rc, 0) << label() << ": " << what << " returned " << rc;
  }

  void init(void* desc) { call("init", driver().init, desc); }
  void update(void* desc, const uint8_t* p, size_t n) {
    call("update", driver().update, desc, p, static_cast<unsigned>(n));
  }
  void final(void* desc, uint8_t* out) { call("final", driver().final, desc, out); }
  void finup(void* desc, const uint8_t* p, size_t n, uint8_t* out) {
    call("finup", driver().finup, desc, p, static_cast<unsigned>(n), out);
  }
  void digest(void* desc, const uint8_t* p, size_t n, uint8_t* out) {
    call("digest", driver().digest, desc, p, static_cast<unsigned>(n), out);
  }
  void export_state(void* desc, void* out) { call("export", driver().export_state, desc, out); }
  void import_state(void* desc, const void* in) { call("import", driver().import_state, desc, in); }

  // Three ways of hashing `msg` whole, each compared with `want`.
  void whole_message(std::span<const uint8_t> msg, const Bytes& want, uint8_t* out) {
    const size_t ds = digest_size();
    RawCtx desc = new_desc();
    digest(fresh(desc), msg.data(), msg.size(), out);
    EXPECT_TRUE(same_bytes({out, ds}, want)) << label() << ": digest()";
    init(fresh(desc));
    update(desc.get(), msg.data(), msg.size());
    final(desc.get(), out);
    EXPECT_TRUE(same_bytes({out, ds}, want)) << label() << ": init, update, final";
    init(fresh(desc));
    finup(desc.get(), msg.data(), msg.size(), out);
    EXPECT_TRUE(same_bytes({out, ds}, want)) << label() << ": init, finup";
  }
};

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DriverHashConformance);
INSTANTIATE_TEST_SUITE_P(All, DriverHashConformance, testing::ValuesIn(driver_params()), HashParamName());

// Test digest(), init/update/final and init/finup at every length up to
// three blocks and a few past a page, the message ending right at an
// unmapped page (an empty message too: the case a glue that lets the
// assembly finalise gets wrong) and the digest right before one.
TEST_P(DriverHashConformance, EveryLength) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 3 * block_size() + 1; ++n) lengths.push_back(n);
  for (size_t n : {size_t{1000}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{65536 + 17}}) lengths.push_back(n);
  GuardedBuffer data(lengths.back(), "data"), out(digest_size(), "digest");
  rng().fill(data.begin(), data.capacity());
  for (size_t len : lengths) {
    CASE_TRACE(testing::Message() << "len=" << len);
    const std::span<const uint8_t> msg{data.tail(len), len};
    whole_message(msg, expected_digest(msg), out.tail(digest_size()));
    if (HasFailure()) break;
  }
}

// Test a message split in two at every boundary: update then finup, update
// update final, and update, export, import into a fresh descriptor, then
// the rest, for messages of two blocks and a bit, with empty updates
// between.
TEST_P(DriverHashConformance, SplitAtEveryBoundary) {
  const size_t ds = digest_size();
  const size_t len = 2 * block_size() + 3;
  const Bytes msg = rng().bytes(len);
  const Bytes want = expected_digest(msg);
  Bytes out(ds), state(driver().state_size);
  RawCtx desc = new_desc(), other = new_desc();
  for (size_t split = 0; split <= len; ++split) {
    CASE_TRACE(testing::Message() << "split=" << split << " of " << len);
    init(fresh(desc));
    update(desc.get(), msg.data(), split);
    finup(desc.get(), msg.data() + split, len - split, out.data());
    EXPECT_TRUE(same_bytes(out, want)) << label() << ": update, finup";

    init(fresh(desc));
    update(desc.get(), msg.data(), split);
    update(desc.get(), msg.data() + split, 0);
    update(desc.get(), msg.data() + split, len - split);
    final(desc.get(), out.data());
    EXPECT_TRUE(same_bytes(out, want)) << label() << ": update, empty update, update, final";

    init(fresh(desc));
    update(desc.get(), msg.data(), split);
    export_state(desc.get(), state.data());
    import_state(fresh(other), state.data());
    finup(other.get(), msg.data() + split, len - split, out.data());
    EXPECT_TRUE(same_bytes(out, want)) << label() << ": update, export, import into another descriptor, finup";
    if (HasFailure()) break;
  }
}

// Test random messages in random pieces (some empty), each piece at a
// random misalignment, ending at an unmapped page, and the digest written
// to a misaligned address.
TEST_P(DriverHashConformance, RandomPiecesMisaligned) {
  constexpr size_t kMax = 5000;
  const size_t ds = digest_size();
  GuardedBuffer piece_buf(kMax + 16, "piece"), out_buf(ds + 16, "digest");
  RawCtx desc = new_desc();
  for (int round = 0; round < rounds(300, 60); ++round) {
    const size_t len = rng().length(kMax);
    const Bytes msg = rng().bytes(len);
    CASE_TRACE(testing::Message() << "round=" << round << " len=" << len);
    init(fresh(desc));
    size_t at = 0;
    while (at < len) {
      const size_t n = std::min(len - at, rng().length(3 * block_size()));
      uint8_t* p = piece_buf.tail(n + rng().below(16));
      std::memcpy(p, msg.data() + at, n);
      update(desc.get(), p, n);
      at += n;
    }
    uint8_t* out = out_buf.tail(ds + rng().below(16));
    final(desc.get(), out);
    EXPECT_TRUE(same_bytes({out, ds}, expected_digest(msg))) << label() << ": " << len << " bytes in pieces";
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace lockstep::conformance
