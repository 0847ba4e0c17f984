// residue::Secrets on memory laid out by hand: a secret fragment is found
// where it lies, in either word order; zeros and public constants never are.
#include "secrets.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace lockstep::residue {
namespace {

// Memory holding `words` as a little-endian machine stores them.
template <class Word>
std::vector<std::uint8_t> memory_of(std::initializer_list<Word> words) {
  std::vector<std::uint8_t> m(words.size() * sizeof(Word));
  std::memcpy(m.data(), std::data(words), m.size());
  return m;
}

// SHA-256's first round constants, FIPS 180-4 section 4.2.2.
constexpr std::uint32_t kK256[] = {0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5};
// SHA-512's, section 4.2.3.
constexpr std::uint64_t kK512[] = {0x428a2f98d728ae22, 0x7137449123ef65cd};

TEST(Secrets, FindsAPairOfWordsInEitherOrderAtItsOffset) {
  Secrets s;
  const std::uint32_t w[] = {0x01020304, 0xa1b2c3d4, 0x55667788};
  s.add_words32("W", w);
  const auto ascending = s.find(memory_of<std::uint32_t>({0, 0, 0xa1b2c3d4, 0x55667788}));
  ASSERT_EQ(ascending.size(), 1u);
  EXPECT_EQ(ascending[0].offset, 8u);
  EXPECT_EQ(ascending[0].what, "W, words 1..2");
  const auto descending = s.find(memory_of<std::uint32_t>({0x55667788, 0xa1b2c3d4}));
  ASSERT_EQ(descending.size(), 1u);
  EXPECT_EQ(descending[0].what, "W, words 1..2 (descending)");
}

TEST(Secrets, ZerosAreNoSecret) {
  Secrets s;
  const std::uint32_t w[] = {0, 0, 0};
  s.add_words32("W", w);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_TRUE(s.find(memory_of<std::uint32_t>({0, 0, 0, 0})).empty());
}

// W[t] + K[t] with the padding's zero W[t] is K[t]: found in a register
// that holds the constants, it is no residue of the message.
TEST(Secrets, RoundConstantsAreNoSecretEvenAsWPlusK) {
  Secrets s;
  const std::uint32_t wk[] = {kK256[0], kK256[1], 0x9e3779b9};
  s.add_words32("W+K", wk);
  s.add_public_words32(kK256);
  EXPECT_TRUE(s.find(memory_of<std::uint32_t>({kK256[0], kK256[1], kK256[2], kK256[3]})).empty());
  EXPECT_TRUE(s.find(memory_of<std::uint32_t>({kK256[1], kK256[0]})).empty());
  const auto hits = s.find(memory_of<std::uint32_t>({kK256[1], 0x9e3779b9}));
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].what, "W+K, words 1..2");

  Secrets s64;
  s64.add_public_words64(kK512);  // before or after: the same
  const std::uint64_t wk64[] = {kK512[1], 0x0123456789abcdef};
  s64.add_words64("W+K", wk64);
  EXPECT_TRUE(s64.find(memory_of<std::uint64_t>({kK512[0], kK512[1]})).empty());
  const auto hits64 = s64.find(memory_of<std::uint64_t>({kK512[1], 0x0123456789abcdef}));
  ASSERT_EQ(hits64.size(), 1u);
  EXPECT_EQ(hits64[0].what, "W+K, word 1");
}

}  // namespace
}  // namespace lockstep::residue
