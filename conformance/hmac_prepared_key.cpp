// HMAC in one call with a prepared key: the kernel's
// hmac_sha256_preparekey() followed by hmac_sha256(key, data, len, out),
// which the front end has as Hmac<A>::prepare_key() and Hmac<A>::mac()
// (impl/sha2/sha2.h). The catalog reaches the key's preparation but not the
// one-shot call, so this file calls the typed front end for the row's
// algorithm.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "hash_conformance.h"
#include "sha2/catalog_entry.h"
#include "sha256/sha256.h"
#include "sha512/sha512.h"

namespace lockstep::conformance {
namespace {
namespace prepared_key {

// OneShot is Hmac<A>::mac over a catalog-prepared key (a sha2::HmacKey<A>).
using OneShot = void (*)(const void* key, const uint8_t* data, size_t len, uint8_t* out,
                         const Backend* b);

template <class A>
void one_shot_of(const void* key, const uint8_t* data, size_t len, uint8_t* out, const Backend* b) {
  sha2::Hmac<A>::mac(*static_cast<const sha2::HmacKey<A>*>(key), data, len, out,
                     sha2::typed<typename A::Family>(b));
}

struct Entry {
  OneShot mac = nullptr;
  size_t key_size = 0;
};

// pick fills `e` for A when `name` is A's.
template <class A>
bool pick(std::string_view name, Entry& e) {
  if (name != A::kName) return false;
  e = Entry{&one_shot_of<A>, sizeof(sha2::HmacKey<A>)};
  return true;
}

Entry find(std::string_view name) {
  Entry e;
  if (pick<sha2::Sha256>(name, e) || pick<sha2::Sha224>(name, e) || pick<sha2::Sha512>(name, e) ||
      pick<sha2::Sha384>(name, e) || pick<sha2::Sha512_224>(name, e) || pick<sha2::Sha512_256>(name, e))
    return e;
  return Entry{};
}

}  // namespace prepared_key
}  // namespace

// Test the one-shot HMAC with a prepared key against the oracle's HMAC
// (reference.h) for every key length from 0 to two blocks and five bytes
// (so empty, shorter than a block, a block, and longer ones, which are
// hashed down), each with messages of 0, 1, a block less one, a block, a
// block and one, 1000 bytes and a random length up to 16384, all through one
// prepared key, which the calls must leave as it was. A byte copy of the key
// elsewhere must serve as well, and a key prepared by the generic backend
// must serve this backend's call, and the other way round (the kernel may
// prepare a key with its SIMD code and use it where that is unusable).
TEST_P(HashConformance, HmacPreparedKeyOneShot) {
  const prepared_key::Entry one_shot = prepared_key::find(alg().name);
  if (one_shot.mac == nullptr)
    return skip_not_applicable("no typed one-shot HMAC for " + std::string(alg().name));
  ASSERT_EQ(one_shot.key_size, alg().hmac_key_size) << "the catalog's key is not the front end's";
  const size_t b = block_size(), ds = digest_size(), ks = alg().hmac_key_size;
  RawCtx key(ks, alg().ctx_align), copy(ks, alg().ctx_align), other(ks, alg().ctx_align);
  const std::vector<size_t> fixed_lens = {0, 1, b - 1, b, b + 1, 1000};
  Bytes out(ds);
  for (size_t key_len = 0; key_len <= 2 * b + 5; ++key_len) {
    const Bytes raw = rng().bytes(key_len);
    alg().hmac_prepare_key(key.get(), raw.data(), key_len, backend());
    const Bytes prepared(key.bytes(), key.bytes() + ks);
    std::vector<size_t> lens = fixed_lens;
    lens.push_back(rng().length(16384));
    for (const size_t len : lens) {
      CASE_TRACE(testing::Message() << "key_len=" << key_len << " msg_len=" << len);
      const Bytes msg = rng().bytes(len);
      const Bytes want = expected_hmac(raw, msg);
      one_shot.mac(key.get(), msg.data(), len, out.data(), backend());
      EXPECT_TRUE(same_bytes(out, want)) << label() << ": key_len=" << key_len << " msg_len=" << len
                                         << ": one-shot HMAC, prepared key";
      if (len != lens.back()) continue;

      // The last message: through a copy of the key, and across backends.
      std::memcpy(copy.get(), key.get(), ks);
      std::memset(key.get(), 0xa5, ks);
      one_shot.mac(copy.get(), msg.data(), len, out.data(), backend());
      EXPECT_TRUE(same_bytes(out, want)) << label() << ": key_len=" << key_len << " msg_len=" << len
                                         << ": through a copy of the prepared key";
      std::memcpy(key.get(), copy.get(), ks);
      if (backend() == generic()) continue;
      alg().hmac_prepare_key(other.get(), raw.data(), key_len, generic());
      one_shot.mac(other.get(), msg.data(), len, out.data(), backend());
      EXPECT_TRUE(same_bytes(out, want)) << label() << ": key_len=" << key_len << " msg_len=" << len
                                         << ": key prepared by " << generic()->name;
      one_shot.mac(key.get(), msg.data(), len, out.data(), generic());
      EXPECT_TRUE(same_bytes(out, want)) << label() << ": key_len=" << key_len << " msg_len=" << len
                                         << ": this backend's key, used by " << generic()->name;
    }
    EXPECT_TRUE(same_bytes({key.bytes(), ks}, prepared))
        << label() << ": key_len=" << key_len << ": the one-shot calls changed the prepared key";
    if (HasFailure()) return;
  }
}

}  // namespace lockstep::conformance
