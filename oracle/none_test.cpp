// Tests of the oracle in a build without its libraries (none.cpp): nothing
// is available, and asking anyway fails with an error that says why.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "oracle.h"

namespace lockstep::oracle {
namespace {

const Bytes kMsg = {'a', 'b', 'c'};
const Bytes kKey(32), kNonce12(12), kNonce16(16), kNonce24(24);

// expect_unavailable checks that `call` throws std::runtime_error whose
// message points the caller at available().
template <class F>
void expect_unavailable(F call) {
  try {
    call();
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("oracle::available()"), std::string::npos) << e.what();
  }
}

TEST(OracleNoneTest, NothingAvailable) {
  for (Source s : kAllSources) EXPECT_FALSE(available(s)) << source_name(s);
}

TEST(OracleNoneTest, LibraryFreeCallsWork) {
  EXPECT_EQ(source_name(Source::kOpenssl), "openssl");
  EXPECT_TRUE(supports_hash("sha256"));
  EXPECT_FALSE(supports_hash("md5"));
  EXPECT_TRUE(digest_opinions("sha256", kMsg).empty());
  EXPECT_TRUE(hmac_opinions("sha224", kMsg, kMsg).empty());
  EXPECT_TRUE(tally({{"a", {1}}, {"b", {1}}}).unanimous());
  // What each adapter could answer is known without the libraries.
  EXPECT_TRUE(supports_chacha(Source::kCryptoppPortable, 12));
  EXPECT_FALSE(supports_chacha(Source::kOpenssl, 12));
  EXPECT_TRUE(supports_hchacha20(Source::kOpenssl));
  EXPECT_FALSE(supports_xchacha20(Source::kOpenssl));
  EXPECT_TRUE(chacha_opinions(20, kKey, 0, kNonce12, kMsg).empty());
  EXPECT_TRUE(hchacha20_opinions(kKey, kNonce16).empty());
  EXPECT_TRUE(xchacha20_opinions(kKey, kNonce24, 0, kMsg).empty());
}

TEST(OracleNoneTest, QuestionsThrowSayingWhy) {
  for (Source s : kAllSources) {
    SCOPED_TRACE(std::string(source_name(s)));
    expect_unavailable([&] { (void)digest("sha256", s, kMsg); });
    expect_unavailable([&] { (void)hmac("sha256", s, kMsg, kMsg); });
    expect_unavailable([&] { (void)provider("sha256", s); });
    expect_unavailable([&] { Stream st("sha256", s); });
    expect_unavailable([&] { (void)chacha(s, 20, kKey, 0, kNonce12, kMsg); });
    expect_unavailable([&] { (void)chacha_provider(s, 20); });
    expect_unavailable([&] { (void)hchacha20(s, kKey, kNonce16); });
    if (supports_xchacha20(s))
      expect_unavailable([&] { (void)xchacha20(s, kKey, kNonce24, 0, kMsg); });
  }
}

// An unknown algorithm is still the caller's mistake, reported as such.
TEST(OracleNoneTest, UnknownAlgorithmThrowsInvalidArgument) {
  EXPECT_THROW((void)digest("md5", Source::kOpenssl, kMsg), std::invalid_argument);
  EXPECT_THROW((void)digest_opinions("sha3-256", kMsg), std::invalid_argument);
  EXPECT_THROW((void)chacha(Source::kOpenssl, 12, kKey, 0, kNonce12, kMsg), std::invalid_argument);
  EXPECT_THROW((void)chacha(Source::kCryptoppSimd, 20, kNonce16, 0, kNonce12, kMsg),
               std::invalid_argument);
  EXPECT_THROW((void)xchacha20(Source::kOpenssl, kKey, kNonce24, 0, kMsg), std::invalid_argument);
  EXPECT_THROW((void)chacha_opinions(10, kKey, 0, kNonce12, kMsg), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::oracle
