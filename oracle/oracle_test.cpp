// Tests of the oracle adapters. Expected values are published ones (FIPS
// 180-4 examples, RFC 4231, RFC 8439, draft-irtf-cfrg-xchacha-03, the
// ChaCha vectors Botan publishes), never lockstep's own output.
#include "oracle.h"

#include <cryptopp/algparam.h>
#include <cryptopp/argnames.h>
#include <cryptopp/chacha.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <random>
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

Bytes unhex(std::string_view hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

Bytes cat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Bytes slice(const Bytes& b, size_t from, size_t len) {
  return Bytes(b.begin() + static_cast<ptrdiff_t>(from),
               b.begin() + static_cast<ptrdiff_t>(from + len));
}

struct Known {
  const char* alg;
  const char* msg;
  const char* md;
};

// FIPS 180-4's two-block message for the 64-bit family (896 bits).
constexpr const char* kMsg896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

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
    // SHA512_224.pdf and SHA512_256.pdf of the same examples. The 28-byte
    // digest ends inside a 64-bit word, which Crypto++ alone gets wrong.
    {"sha512-224", "abc", "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa"},
    {"sha512-224", kMsg896, "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9"},
    {"sha512-256", "abc", "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"},
    {"sha512-256", kMsg896, "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"},
    // The empty message: ACVP SHA2-512/224 (AFT, len 0) and Botan's
    // sha2_64.vec (SHA-512-256).
    {"sha512-224", "", "6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4"},
    {"sha512-256", "", "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a"},
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
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256"})
    EXPECT_TRUE(supports_hash(alg));
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
    // RFC 4231 test case 2 over SHA-512/256, as Botan's hmac.vec publishes it.
    EXPECT_EQ(to_hex(hmac("sha512-256", s, jefe, what)),
              "6df7b24630d5ccb2ee335407081a87188c221489768fa2020513b2d593359456");
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
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256"}) {
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
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256"}) {
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

// ChaCha. The counter semantics under test are lockstep's (impl/chacha/
// chacha.h): the 32-bit block counter wraps to 0 and the nonce stays put.

Bytes iota_key() {
  Bytes key(32);
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i);
  return key;
}

// plus_one_le32 adds one to the little-endian word at the start of `b`, as a
// counter that carried out of word 12 would.
Bytes plus_one_le32(Bytes b) {
  for (size_t i = 0; i < 4 && ++b[i] == 0; ++i) {
  }
  return b;
}

bool host_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28))) return false;
  unsigned lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return false;  // the OS saves XMM and YMM state
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5));
#else
  return false;
#endif
}

TEST(OracleTest, ChachaSupport) {
  for (Source s : {Source::kCryptoppPortable, Source::kCryptoppSimd}) {
    SCOPED_TRACE(source_name(s));
    EXPECT_TRUE(supports_chacha(s, 20));
    EXPECT_TRUE(supports_chacha(s, 12));
    EXPECT_TRUE(supports_chacha(s, 8));
    EXPECT_FALSE(supports_chacha(s, 10));
    EXPECT_TRUE(supports_hchacha20(s));
    EXPECT_TRUE(supports_xchacha20(s));
  }
  EXPECT_TRUE(supports_chacha(Source::kOpenssl, 20));
  EXPECT_FALSE(supports_chacha(Source::kOpenssl, 12));
  EXPECT_FALSE(supports_chacha(Source::kOpenssl, 8));
  EXPECT_TRUE(supports_hchacha20(Source::kOpenssl));
  EXPECT_FALSE(supports_xchacha20(Source::kOpenssl));
}

// Test that requests no source can answer are refused as the caller's
// mistake, and that the opinions ask exactly the sources that can answer.
TEST(OracleTest, ChachaRefusesWhatItCannotAnswer) {
  const Bytes key(32), nonce(12), msg(10);
  EXPECT_THROW(chacha(Source::kOpenssl, 12, key, 0, nonce, msg), std::invalid_argument);
  EXPECT_THROW(chacha(Source::kCryptoppPortable, 10, key, 0, nonce, msg), std::invalid_argument);
  EXPECT_THROW(chacha(Source::kCryptoppSimd, 20, Bytes(16), 0, nonce, msg), std::invalid_argument);
  EXPECT_THROW(chacha(Source::kOpenssl, 20, key, 0, Bytes(8), msg), std::invalid_argument);
  EXPECT_THROW(hchacha20(Source::kOpenssl, key, Bytes(12)), std::invalid_argument);
  EXPECT_THROW(xchacha20(Source::kOpenssl, key, Bytes(24), 0, msg), std::invalid_argument);
  EXPECT_THROW(xchacha20(Source::kCryptoppSimd, key, Bytes(12), 0, msg), std::invalid_argument);
  EXPECT_THROW(chacha_opinions(10, key, 0, nonce, msg), std::invalid_argument);
  EXPECT_THROW(chacha_provider(Source::kOpenssl, 12), std::invalid_argument);
  EXPECT_EQ(chacha_opinions(20, key, 0, nonce, msg).size(), 3u);
  EXPECT_EQ(chacha_opinions(12, key, 0, nonce, msg).size(), 2u);
  EXPECT_EQ(hchacha20_opinions(key, Bytes(16)).size(), 3u);
  EXPECT_EQ(xchacha20_opinions(key, Bytes(24), 0, msg).size(), 2u);
  for (Source s : kAllSources) EXPECT_TRUE(chacha(s, 20, key, 7, nonce, {}).empty());
}

// Test that every source reproduces RFC 8439 2.4.2 (the sunscreen text,
// counter 1), both ways.
TEST(OracleTest, ChachaRfc8439Sunscreen) {
  const Bytes nonce = unhex("000000000000004a00000000");
  const Bytes pt = bytes(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
      "future, sunscreen would be it.");
  const std::string ct =
      "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dab"
      "cd62b3571639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806"
      "818ce91ab77937365af90bbf74a35be6b40b8eedf2785e42874d";
  for (Source s : kAllSources) {
    SCOPED_TRACE(source_name(s));
    EXPECT_EQ(to_hex(chacha(s, 20, iota_key(), 1, nonce, pt)), ct);
    EXPECT_EQ(chacha(s, 20, iota_key(), 1, nonce, unhex(ct)), pt);
  }
}

struct KeystreamVector {
  const char* key;
  const char* nonce;
  uint32_t counter;
  const char* keystream;
};

// RFC 8439 A.1, test vectors 1 to 5 (the block function).
constexpr KeystreamVector kRfc8439A1[] = {
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 0,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 1,
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
     "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"},
    {"0000000000000000000000000000000000000000000000000000000000000001",
     "000000000000000000000000", 1,
     "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
     "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"},
    {"00ff000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 2,
     "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
     "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000002", 0,
     "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
     "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"},
};

// Test that every source reproduces the RFC 8439 A.1 keystream blocks.
TEST(OracleTest, ChachaRfc8439BlockFunction) {
  for (size_t i = 0; i < std::size(kRfc8439A1); ++i) {
    const KeystreamVector& v = kRfc8439A1[i];
    for (Source s : kAllSources) {
      SCOPED_TRACE(fmt::format("A.1 #{} {}", i + 1, source_name(s)));
      EXPECT_EQ(to_hex(chacha(s, 20, unhex(v.key), v.counter, unhex(v.nonce), Bytes(64))),
                v.keystream);
    }
  }
}

// Test that Crypto++'s reduced-round ChaCha, mapped onto the IETF layout,
// reproduces published keystreams: Botan's src/tests/data/stream/chacha.vec
// (ChaCha(12) from Yawning's sphincs256 chacha_test.go, with an 8-byte
// Bernstein nonce, which is the IETF nonce 00000000 || nonce at counter 0;
// ChaCha(8) with a 12-byte IETF nonce, from Bernstein's implementation).
TEST(OracleTest, ChachaReducedRounds) {
  const Bytes key12 = unhex("0f62b5085bae0154a7fa4da0f34699ec3f92e5388bde3184d72a7dd02376c91c");
  const Bytes nonce12 = unhex("00000000288ff65dc42b92f9");
  const std::string want12 =
      "49fd8fbf19edcf3a198f5226aa480b97d9f16ba71a693c4ecb90c276094585df"
      "a4fa259e1ec34de444c92879bfe7f641eeac480168dc8969a9c033151b1e9229";
  const Bytes nonce8 = unhex("000102030405060708090a0b");
  const std::string want8 =
      "2e214501d03825e75ac476151531939d6db48e04588d91cb6cac080f87cdf6a9"
      "5c6a0245e0333a970bb8e8c373a0ca81e2592224712b8002d3aa52835df513f5"
      "d4cccd346e24968a9bbe43c770ef563968821b21fdf26583f51d9f3ed89eba91"
      "2b2ec460c460be062b8ae3604569fdfd0b1312f7705e9d7a33dcbe720d69308c"
      "d89ac06c58545c47148bd68c1e61a838dd3bfb88a5adc721deab8147b9ec16a7"
      "7fc8466c0b791d29ac2068769d8aa54a5d15a11580fa9a375f2d0072e1fb8ef5"
      "a27ef31b7710e196b3d061c911ffa93d067364d23b1fe69ea1318202bf94c871"
      "8cb44f4383d678c493a5c5502f02a9ba861534dd2bdc9559587bfeed4a08f5c3";
  for (Source s : {Source::kCryptoppPortable, Source::kCryptoppSimd}) {
    SCOPED_TRACE(source_name(s));
    EXPECT_EQ(to_hex(chacha(s, 12, key12, 0, nonce12, Bytes(64))), want12);
    EXPECT_EQ(to_hex(chacha(s, 8, iota_key(), 0, nonce8, Bytes(256))), want8);
  }
}

// Test that every source's derived HChaCha20 reproduces the draft's 2.2.1
// vector.
TEST(OracleTest, Hchacha20Draft) {
  const Bytes nonce = unhex("000000090000004a0000000031415927");
  for (Source s : kAllSources) {
    SCOPED_TRACE(source_name(s));
    EXPECT_EQ(to_hex(hchacha20(s, iota_key(), nonce)),
              "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
  }
}

// Test XChaCha20 against the draft's A.3.2 vectors (block counter 0 and 1):
// Crypto++ directly, and every source (OpenSSL included) through the
// draft's construction, hchacha20 then chacha.
TEST(OracleTest, Xchacha20Draft) {
  const Bytes key = unhex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
  const Bytes nonce = unhex("404142434445464748494a4b4c4d4e4f5051525354555658");
  const Bytes pt = bytes(
      "The dhole (pronounced \"dole\") is also known as the Asiatic wild dog, red dog, and "
      "whistling dog. It is about the size of a German shepherd but looks more like a "
      "long-legged fox. This highly elusive and skilled jumper is classified with wolves, "
      "coyotes, jackals, and foxes in the taxonomic family Canidae.");
  ASSERT_EQ(pt.size(), 304u);
  struct {
    uint32_t counter;
    const char* keystream;
    const char* ciphertext;
  } const kA32[] = {
      {0,
       "1131ce9a2a20ae0d67c8935c7789fa1025c9e5bb720fb96f11354fb97af0bd9a"
       "adec0863ba60cac8582c48f86cdfc48edd46a48642c5de62ccf11c7b21bf337d"
       "29624b4b1b140ace53740e405b2168540fd7d630c1f536fecd722fc3cddba7f4"
       "cca98cf9e47e5e64d115450f9b125b54449ff76141ca620a1f9cfcab2a1a8a25"
       "5e766a5266b878846120ea64ad99aa479471e63befcbd37cd1c22a221fe46221"
       "5cf32c74895bf505863ccddd48f62916dc6521f1ec50a5ae08903aa259d9bf60"
       "7cd8026fba548604f1b6072d91bc91243a5b845f7fd171b02edc5a0a84cf28dd"
       "241146bc376e3f48df5e7fee1d11048c190a3d3deb0feb64b42d9c6fdeee290f"
       "a0e6ae2c26c0249ea8c181f7e2ffd100cbe5fd3c4f8271d62b15330cb8fdcf00"
       "b3df507ca8c924f7017b7e712d15a2eb",
       "4559abba4e48c16102e8bb2c05e6947f50a786de162f9b0b7e592a9b53d0d4e9"
       "8d8d6410d540a1a6375b26d80dace4fab52384c731acbf16a5923c0c48d3575d"
       "4d0d2c673b666faa731061277701093a6bf7a158a8864292a41c48e3a9b4c0da"
       "ece0f8d98d0d7e05b37a307bbb66333164ec9e1b24ea0d6c3ffddcec4f68e744"
       "3056193a03c810e11344ca06d8ed8a2bfb1e8d48cfa6bc0eb4e2464b74814240"
       "7c9f431aee769960e15ba8b96890466ef2457599852385c661f752ce20f9da0c"
       "09ab6b19df74e76a95967446f8d0fd415e7bee2a12a114c20eb5292ae7a349ae"
       "577820d5520a1f3fb62a17ce6a7e68fa7c79111d8860920bc048ef43fe84486c"
       "cb87c25f0ae045f0cce1e7989a9aa220a28bdd4827e751a24a6d5c62d790a663"
       "93b93111c1a55dd7421a10184974c7c5"},
      {1,
       "29624b4b1b140ace53740e405b2168540fd7d630c1f536fecd722fc3cddba7f4"
       "cca98cf9e47e5e64d115450f9b125b54449ff76141ca620a1f9cfcab2a1a8a25"
       "5e766a5266b878846120ea64ad99aa479471e63befcbd37cd1c22a221fe46221"
       "5cf32c74895bf505863ccddd48f62916dc6521f1ec50a5ae08903aa259d9bf60"
       "7cd8026fba548604f1b6072d91bc91243a5b845f7fd171b02edc5a0a84cf28dd"
       "241146bc376e3f48df5e7fee1d11048c190a3d3deb0feb64b42d9c6fdeee290f"
       "a0e6ae2c26c0249ea8c181f7e2ffd100cbe5fd3c4f8271d62b15330cb8fdcf00"
       "b3df507ca8c924f7017b7e712d15a2eb5c50484451e54e1b4b995bd8fdd94597"
       "bb94d7af0b2c04df10ba0890899ed9293a0f55b8bafa999264035f1d4fbe7fe0"
       "aafa109a62372027e50e10cdfecca127",
       "7d0a2e6b7f7c65a236542630294e063b7ab9b555a5d5149aa21e4ae1e4fbce87"
       "ecc8e08a8b5e350abe622b2ffa617b202cfad72032a3037e76ffdcdc4376ee05"
       "3a190d7e46ca1de04144850381b9cb29f051915386b8a710b8ac4d027b8b050f"
       "7cba5854e028d564e453b8a968824173fc16488b8970cac828f11ae53cabd201"
       "12f87107df24ee6183d2274fe4c8b1485534ef2c5fbc1ec24bfc3663efaa08bc"
       "047d29d25043532db8391a8a3d776bf4372a6955827ccb0cdd4af403a7ce4c63"
       "d595c75a43e045f0cce1f29c8b93bd65afc5974922f214a40b7c402cdb91ae73"
       "c0b63615cdad0480680f16515a7ace9d39236464328a37743ffc28f4ddb324f4"
       "d0f5bbdc270c65b1749a6efff1fbaa09536175ccd29fb9e6057b307320d31683"
       "8a9c71f70b5b5907a66f7ea49aadc409"},
  };
  const Bytes tail_nonce = cat(Bytes(4), slice(nonce, 16, 8));
  for (const auto& v : kA32) {
    for (Source s : kAllSources) {
      SCOPED_TRACE(fmt::format("counter={} {}", v.counter, source_name(s)));
      const Bytes subkey = hchacha20(s, key, std::span(nonce).first(16));
      EXPECT_EQ(to_hex(chacha(s, 20, subkey, v.counter, tail_nonce, pt)), v.ciphertext);
      if (!supports_xchacha20(s)) continue;
      EXPECT_EQ(to_hex(xchacha20(s, key, nonce, v.counter, Bytes(pt.size()))), v.keystream);
      EXPECT_EQ(to_hex(xchacha20(s, key, nonce, v.counter, pt)), v.ciphertext);
    }
  }
}

// Block counts around every Crypto++ SIMD width (4 and 8 blocks) and past
// 16, each whole, one byte short and with a partial block after.
std::vector<size_t> wrap_lengths() {
  std::vector<size_t> lens = {1, 63};
  for (size_t blocks : {1, 2, 4, 8, 12, 16, 17, 33})
    for (size_t len : {blocks * 64 - 1, blocks * 64, blocks * 64 + 17}) lens.push_back(len);
  return lens;
}

// Counters just below the wrap (2^32 - k, k = 1..17) and some far from it.
std::vector<uint32_t> wrap_counters() {
  std::vector<uint32_t> ctrs = {0, 1, 0x7fffffff};
  for (uint32_t k = 1; k <= 17; ++k) ctrs.push_back(static_cast<uint32_t>(0 - k));
  return ctrs;
}

Bytes random_bytes(std::mt19937& rng, size_t n) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// Test that every source agrees on random inputs across the counter wrap,
// and that the common answer is lockstep's semantics: the same as the part
// before the wrap followed by the rest from counter 0 under the same nonce,
// neither part crossing the wrap. Every third nonce starts with ffffffff, so
// that a carry into it would wrap it too.
TEST(OracleTest, ChachaSourcesAgreeAcrossTheWrap) {
  std::mt19937 rng(8439);
  int n = 0;
  for (int rounds : {20, 12, 8}) {
    for (uint32_t counter : wrap_counters()) {
      for (size_t len : wrap_lengths()) {
        SCOPED_TRACE(fmt::format("rounds={} counter={:#x} len={}", rounds, counter, len));
        const Bytes key = random_bytes(rng, 32);
        Bytes nonce = random_bytes(rng, 12);
        if (++n % 3 == 0) std::memset(nonce.data(), 0xff, 4);
        const Bytes msg = random_bytes(rng, len);
        const auto ops = chacha_opinions(rounds, key, counter, nonce, msg);
        ASSERT_EQ(ops.size(), rounds == 20 ? 3u : 2u);
        EXPECT_TRUE(tally(ops).unanimous()) << tally(ops).to_string();
        const uint64_t before_wrap = ((uint64_t{1} << 32) - counter) * 64;
        if (len <= before_wrap) continue;
        const size_t first = static_cast<size_t>(before_wrap);
        for (Source s : kAllSources) {
          if (!supports_chacha(s, rounds)) continue;
          const Bytes want =
              cat(chacha(s, rounds, key, counter, nonce, slice(msg, 0, first)),
                  chacha(s, rounds, key, 0, nonce, slice(msg, first, len - first)));
          EXPECT_EQ(to_hex(ops[0].value), to_hex(want)) << source_name(s);
        }
      }
    }
  }
}

// Test that XChaCha20 agrees across the wrap as well: Crypto++'s two modes
// with each other, and with the draft's construction over every source's
// HChaCha20 and ChaCha20, whose counter wraps as lockstep's does.
TEST(OracleTest, Xchacha20AgreesAcrossTheWrap) {
  std::mt19937 rng(24);
  for (uint32_t counter : wrap_counters()) {
    for (size_t len : wrap_lengths()) {
      SCOPED_TRACE(fmt::format("counter={:#x} len={}", counter, len));
      const Bytes key = random_bytes(rng, 32);
      const Bytes nonce = random_bytes(rng, 24);
      const Bytes msg = random_bytes(rng, len);
      const auto ops = xchacha20_opinions(key, nonce, counter, msg);
      ASSERT_EQ(ops.size(), 2u);
      EXPECT_TRUE(tally(ops).unanimous()) << tally(ops).to_string();
      const auto hops = hchacha20_opinions(key, std::span(nonce).first(16));
      ASSERT_EQ(hops.size(), 3u);
      EXPECT_TRUE(tally(hops).unanimous()) << tally(hops).to_string();
      const Bytes tail_nonce = cat(Bytes(4), slice(nonce, 16, 8));
      for (Source s : kAllSources) {
        const Bytes subkey = hchacha20(s, key, std::span(nonce).first(16));
        EXPECT_EQ(to_hex(chacha(s, 20, subkey, counter, tail_nonce, msg)), to_hex(ops[0].value))
            << source_name(s);
      }
    }
  }
}

// raw_evp_chacha20 is OpenSSL's EVP_chacha20 without the adapter: `iv` is
// the counter (little-endian) followed by the nonce.
Bytes raw_evp_chacha20(const Bytes& key, const Bytes& iv, const Bytes& msg) {
  std::unique_ptr<EVP_CIPHER_CTX, void (*)(EVP_CIPHER_CTX*)> ctx(EVP_CIPHER_CTX_new(),
                                                                  &EVP_CIPHER_CTX_free);
  Bytes out(msg.size());
  int outl = 0;
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_chacha20(), nullptr, key.data(), iv.data()) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())) !=
          1)
    ADD_FAILURE() << "EVP_chacha20 failed";
  return out;
}

// Test that OpenSSL's own EVP_chacha20 carries the counter into the nonce's
// first word at 2^32, so that without the adapter's split it would disagree
// with lockstep after the wrap.
TEST(OracleTest, OpensslCarriesIntoTheNonceUnlessSplit) {
  std::mt19937 rng(3);
  const Bytes key = random_bytes(rng, 32);
  const Bytes nonce = random_bytes(rng, 12);
  const Bytes zeros(3 * 64);
  const Bytes raw = raw_evp_chacha20(key, cat(unhex("ffffffff"), nonce), zeros);
  const Bytes adapted = chacha(Source::kOpenssl, 20, key, 0xffffffff, nonce, zeros);
  EXPECT_EQ(slice(raw, 0, 64), slice(adapted, 0, 64)) << "before the wrap";
  EXPECT_NE(slice(raw, 64, 128), slice(adapted, 64, 128)) << "after the wrap";
  // The adapter: counter 0, same nonce. OpenSSL: counter 0, nonce + 1.
  EXPECT_EQ(slice(adapted, 64, 128), chacha(Source::kOpenssl, 20, key, 0, nonce, Bytes(128)));
  EXPECT_EQ(slice(raw, 64, 128),
            chacha(Source::kOpenssl, 20, key, 0, plus_one_le32(nonce), Bytes(128)));
}

// Test the wrap as Crypto++ itself handles it: ChaChaTLS drops the carry
// (so its adapter needs no split, and agrees with the split OpenSSL one
// over a stretch long enough for its SIMD paths on both sides of the
// wrap), while the original ChaCha and XChaCha20 carry into word 13, so
// their adapters must split.
TEST(OracleTest, CryptoppWrapBehaviour) {
  std::mt19937 rng(790);
  const Bytes key = random_bytes(rng, 32);
  Bytes nonce = random_bytes(rng, 12);
  const Bytes zeros(40 * 64);

  Bytes tls(zeros.size());
  CryptoPP::ChaChaTLS::Encryption c;
  c.SetKey(key.data(), key.size(),
           CryptoPP::MakeParameters(CryptoPP::Name::IV(),
                                    CryptoPP::ConstByteArrayParameter(nonce.data(), 12, false))(
               "InitialBlock", CryptoPP::word64{0xfffffff0}));
  c.ProcessData(tls.data(), zeros.data(), zeros.size());
  EXPECT_EQ(to_hex(tls), to_hex(chacha(Source::kOpenssl, 20, key, 0xfffffff0, nonce, zeros)));

  // The original ChaCha through its public Seek (a byte offset), with the
  // nonce's first word small enough for the offset to fit in 64 bits.
  nonce[0] = 7, nonce[1] = nonce[2] = nonce[3] = 0;
  Bytes djb(2 * 64);
  CryptoPP::ChaCha::Encryption d;
  d.SetKey(key.data(), key.size(),
           CryptoPP::MakeParameters(CryptoPP::Name::Rounds(), 12)(
               CryptoPP::Name::IV(),
               CryptoPP::ConstByteArrayParameter(nonce.data() + 4, 8, false)));
  d.Seek(((uint64_t{7} << 32) | 0xffffffff) * 64);
  d.ProcessString(djb.data(), djb.size());
  const Source p = Source::kCryptoppPortable;
  EXPECT_EQ(slice(djb, 0, 64), chacha(p, 12, key, 0xffffffff, nonce, Bytes(64)));
  EXPECT_NE(slice(djb, 64, 64), chacha(p, 12, key, 0, nonce, Bytes(64)));
  EXPECT_EQ(slice(djb, 64, 64), chacha(p, 12, key, 0, plus_one_le32(nonce), Bytes(64)));

  // XChaCha20: its word 13 is zero, and becomes one after the wrap.
  const Bytes xnonce = random_bytes(rng, 24);
  Bytes x(2 * 64);
  CryptoPP::XChaCha20::Encryption xc;
  xc.SetKey(key.data(), key.size(),
            CryptoPP::MakeParameters(CryptoPP::Name::IV(),
                                     CryptoPP::ConstByteArrayParameter(xnonce.data(), 24, false))(
                "InitialBlock", CryptoPP::word64{0xffffffff}));
  xc.ProcessString(x.data(), x.size());
  EXPECT_EQ(slice(x, 0, 64), xchacha20(p, key, xnonce, 0xffffffff, Bytes(64)));
  EXPECT_NE(slice(x, 64, 64), xchacha20(p, key, xnonce, 0, Bytes(64)));
  const Bytes subkey = hchacha20(Source::kOpenssl, key, std::span(xnonce).first(16));
  EXPECT_EQ(slice(x, 64, 64), chacha(Source::kOpenssl, 20, subkey, 0,
                                     cat(unhex("01000000"), slice(xnonce, 16, 8)), Bytes(64)));
}

// Test that the two Crypto++ modes run different ChaCha code: portable mode
// the C++ path, SIMD mode (on x86-64) AVX2 where the CPU and OS have it,
// SSE2 otherwise; and that the flags come back afterwards.
TEST(OracleTest, CryptoppChachaModesTakeDifferentPaths) {
  for (int rounds : {20, 12, 8}) {
    SCOPED_TRACE(fmt::format("rounds={}", rounds));
    const std::string simd_before = chacha_provider(Source::kCryptoppSimd, rounds);
    EXPECT_EQ(chacha_provider(Source::kCryptoppPortable, rounds), "C++");
    EXPECT_EQ(chacha_provider(Source::kCryptoppSimd, rounds), simd_before) << "flags not restored";
#if defined(__x86_64__)
    EXPECT_EQ(simd_before, host_has_avx2() ? "AVX2" : "SSE2");
#endif
  }
  EXPECT_FALSE(chacha_provider(Source::kOpenssl, 20).empty());
}

}  // namespace
}  // namespace lockstep::oracle
