// Tests of the oracle adapters. Expected values are published ones (FIPS
// 180-4 examples, RFC 4231), never lockstep's own output.
#include "oracle.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace lockstep::oracle {
namespace {

Bytes bytes(std::string_view s) { return Bytes(s.begin(), s.end()); }

std::string to_hex(const Bytes& b) { return fmt::format("{:02x}", fmt::join(b, "")); }

struct Known {
  const char* alg;
  const char* msg;
  const char* md;
};

// FIPS 180-4 example values (NIST CSRC "Examples with intermediate values")
// and the empty message from the CAVP ShortMsg files (Len = 0).
constexpr Known kKnown[] = {
    {"sha256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"sha256", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {"sha224", "", "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"},
    {"sha224", "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
    {"sha224", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"},
    {"sha384", "abc",
     "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
     "8086072ba1e7cc2358baeca134c825a7"},
    {"sha512", "abc",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
};

bool host_has_sha_ni() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
#else
  return false;
#endif
}

TEST(OracleTest, SourceNames) {
  EXPECT_EQ(source_name(Source::kCryptoppPortable), "cryptopp-portable");
  EXPECT_EQ(source_name(Source::kCryptoppSimd), "cryptopp-simd");
  EXPECT_EQ(source_name(Source::kOpenssl), "openssl");
  for (Source s : kAllSources) EXPECT_TRUE(available(s)) << source_name(s);
}

TEST(OracleTest, SupportsHash) {
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512"}) EXPECT_TRUE(supports_hash(alg));
  EXPECT_FALSE(supports_hash("md5"));
  EXPECT_FALSE(supports_hash("SHA-256"));
}

// Test that every source reproduces the published digests.
TEST(OracleTest, PublishedDigests) {
  for (const Known& k : kKnown) {
    for (Source s : kAllSources) {
      SCOPED_TRACE(std::string(k.alg) + " msg=\"" + k.msg + "\" source=" +
                   std::string(source_name(s)));
      EXPECT_EQ(to_hex(digest(k.alg, s, bytes(k.msg))), k.md);
    }
  }
}

// Test that every source reproduces FIPS 180's one million 'a'.
TEST(OracleTest, MillionA) {
  const Bytes msg(1000000, 'a');
  for (Source s : kAllSources) {
    SCOPED_TRACE(source_name(s));
    EXPECT_EQ(to_hex(digest("sha256", s, msg)),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    EXPECT_EQ(to_hex(digest("sha224", s, msg)),
              "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67");
  }
}

// Test that every source reproduces RFC 4231 test case 2 and test case 6
// (a key longer than the block, which HMAC hashes first).
TEST(OracleTest, Rfc4231) {
  const Bytes jefe = bytes("Jefe");
  const Bytes what = bytes("what do ya want for nothing?");
  const Bytes long_key(131, 0xaa);
  const Bytes first = bytes("Test Using Larger Than Block-Size Key - Hash Key First");
  for (Source s : kAllSources) {
    SCOPED_TRACE(source_name(s));
    EXPECT_EQ(to_hex(hmac("sha256", s, jefe, what)),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    EXPECT_EQ(to_hex(hmac("sha224", s, jefe, what)),
              "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44");
    EXPECT_EQ(to_hex(hmac("sha256", s, long_key, first)),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    EXPECT_EQ(to_hex(hmac("sha224", s, long_key, first)),
              "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e");
  }
}

// Test that an empty key and an empty message work everywhere (OpenSSL
// treats a null key pointer as "no key").
TEST(OracleTest, EmptyKeyAndMessage) {
  for (Source s : kAllSources) {
    SCOPED_TRACE(source_name(s));
    EXPECT_EQ(to_hex(hmac("sha256", s, {}, {})),
              "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
  }
  EXPECT_TRUE(tally(hmac_opinions("sha224", {}, {})).unanimous());
}

// Test that the two Crypto++ modes really run different code: portable mode
// must report the C++ path, and SIMD mode whatever the CPU offers (on
// x86-64 at least SSE2, SHA-NI where the CPU has it). Also checks that
// portable mode restores the flags afterwards.
TEST(OracleTest, CryptoppModesTakeDifferentPaths) {
  for (const char* alg : {"sha224", "sha256"}) {
    SCOPED_TRACE(alg);
    const std::string simd_before = provider(alg, Source::kCryptoppSimd);
    EXPECT_EQ(provider(alg, Source::kCryptoppPortable), "C++");
    EXPECT_EQ(provider(alg, Source::kCryptoppSimd), simd_before) << "flags not restored";
#if defined(__x86_64__)
    EXPECT_NE(simd_before, "C++");
    if (host_has_sha_ni()) {
      EXPECT_EQ(simd_before, "SHANI");
    }
#endif
  }
  EXPECT_FALSE(provider("sha256", Source::kOpenssl).empty());
}

// Test that streaming in pieces gives the one-shot answer, for every split
// of a message that spans several blocks.
TEST(OracleTest, StreamMatchesOneShot) {
  Bytes msg(300);
  for (size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<uint8_t>(i * 7 + 3);
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512"}) {
    for (Source s : kAllSources) {
      const Bytes want = digest(alg, s, msg);
      for (size_t split = 0; split <= msg.size(); split += 13) {
        SCOPED_TRACE(std::string(alg) + " " + std::string(source_name(s)) +
                     " split=" + std::to_string(split));
        Stream st(alg, s);
        st.update(std::span(msg).first(split));
        st.update({});
        st.update(std::span(msg).subspan(split));
        EXPECT_EQ(st.final(), want);
      }
    }
  }
}

TEST(OracleTest, UnknownAlgorithmThrows) {
  const Bytes m = bytes("x");
  for (Source s : kAllSources) {
    EXPECT_THROW(digest("md5", s, m), std::invalid_argument);
    EXPECT_THROW(hmac("sha1", s, m, m), std::invalid_argument);
    EXPECT_THROW(Stream("SHA-256", s), std::invalid_argument);
  }
  EXPECT_THROW(digest_opinions("sha3-256", m), std::invalid_argument);
}

// Test that the sources agree on every length across several blocks, for
// every algorithm and for HMAC with keys around the block size.
TEST(OracleTest, SourcesAgree) {
  Bytes msg(260);
  for (size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<uint8_t>(i * 131 + 17);
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512"}) {
    for (size_t len = 0; len <= msg.size(); ++len) {
      SCOPED_TRACE(std::string(alg) + " len=" + std::to_string(len));
      const auto part = std::span(msg).first(len);
      const auto ops = digest_opinions(alg, part);
      ASSERT_EQ(ops.size(), std::size(kAllSources));
      EXPECT_TRUE(tally(ops).unanimous()) << tally(ops).to_string();
      const auto hops = hmac_opinions(alg, part.first(len % 150), part);
      EXPECT_TRUE(tally(hops).unanimous()) << tally(hops).to_string();
    }
  }
}

TEST(OracleTest, TallyGroupsLargestFirst) {
  const std::vector<Opinion> ops = {
      {"sha256/x86-shani", {1}},
      {"sha256/generic", {2}},
      {"cryptopp-portable", {2}},
      {"cryptopp-simd", {3}},
      {"openssl", {2}},
  };
  const Vote v = tally(ops);
  ASSERT_EQ(v.groups.size(), 3u);
  EXPECT_FALSE(v.unanimous());
  EXPECT_EQ(v.groups[0], (std::vector<std::string>{"sha256/generic", "cryptopp-portable", "openssl"}));
  EXPECT_EQ(v.to_string(),
            "agree: [sha256/generic cryptopp-portable openssl] [sha256/x86-shani] [cryptopp-simd]");
  EXPECT_TRUE(tally({{"a", {9}}, {"b", {9}}}).unanimous());
  EXPECT_TRUE(tally({}).unanimous());
}

// Test that threads mixing the two Crypto++ modes get right answers: the
// mode switch is global state, so the adapter must serialise it.
TEST(OracleTest, ThreadsMixModes) {
  const Bytes msg = bytes("abc");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        const Source s = (i + t) % 2 ? Source::kCryptoppPortable : Source::kCryptoppSimd;
        if (to_hex(digest("sha256", s, msg)) !=
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
          ++wrong;
        const std::string want = s == Source::kCryptoppPortable ? "C++" : "";
        if (!want.empty() && provider("sha256", s) != want) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
#if defined(__x86_64__)
  EXPECT_NE(provider("sha256", Source::kCryptoppSimd), "C++") << "flags not restored";
#endif
}

}  // namespace
}  // namespace lockstep::oracle
