// Test describe_mismatch (mismatch.h): the offset of the first difference
// and a window of both byte strings around it, where hex() cut at 64 bytes
// would print two different outputs alike.
#include <gtest/gtest.h>

#include <string>

#include "bytes.h"

namespace lockstep::conformance {
namespace {

// 4096 bytes counting 00 01 .. ff 00 01 ..
Bytes counting() {
  Bytes b(4096);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(i);
  return b;
}

// Test that a difference at byte 1000 of 4096 is reported at offset 1000,
// with bytes 984..1016 of both sides and the differing byte marked.
TEST(DescribeMismatch, NamesTheOffsetWithAWindow) {
  const Bytes want = counting();
  Bytes got = want;
  got[1000] = 0x17;  // want[1000] is 1000 mod 256 = 0xe8
  ASSERT_EQ(hex(got), hex(want)) << "the cut-off hex this replaces no longer hides the difference";
  const std::string d = describe_mismatch(got, want);
  EXPECT_NE(d.find("first difference at offset 1000 of 4096 bytes (1 byte differs)"), std::string::npos) << d;
  EXPECT_NE(d.find("bytes 984..1016"), std::string::npos) << d;
  // 984 = 0x3d8: the window runs d8 .. e7, the marked byte, e9 .. f8.
  EXPECT_NE(d.find("got ...d8d9dadbdcdddedfe0e1e2e3e4e5e6e7[17]e9eaebecedeeeff0f1f2f3f4f5f6f7f8..."),
            std::string::npos) << d;
  EXPECT_NE(d.find("expected ...d8d9dadbdcdddedfe0e1e2e3e4e5e6e7[e8]e9eaebecedeeeff0f1f2f3f4f5f6f7f8..."),
            std::string::npos) << d;
}

// Test the edges: a difference in the first byte, outputs of different
// lengths, one a prefix of the other, and equal inputs.
TEST(DescribeMismatch, EdgesAndLengths) {
  const Bytes a = {0x00, 0x01, 0x02};
  EXPECT_EQ(describe_mismatch(Bytes{0xff, 0x01, 0x02}, a),
            "first difference at offset 0 of 3 bytes (1 byte differs), bytes 0..2: got [ff]0102(end), "
            "expected [00]0102(end)");
  EXPECT_EQ(describe_mismatch(Bytes{0x00, 0x01}, a),
            "lengths differ (got 2 bytes, expected 3); equal up to offset 2, bytes 0..2: got 0001(end), "
            "expected 0001[02](end)");
  EXPECT_EQ(describe_mismatch(a, a), "equal (3 bytes)");
}

}  // namespace
}  // namespace lockstep::conformance
