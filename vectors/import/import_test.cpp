// The importers on small inline files of every format (import_samples.h):
// what they read, what they skip and why, and that a malformed file is an
// ImportError naming file, test and field. Running what they read on the
// backends is the runner's test (conformance/vector_runner_test.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

#include "vectors/import/import.h"
#include "vectors/import/import_samples.h"

namespace lockstep::vectors::import {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace samples;

// error_of returns the ImportError's message, or "" when there is none.
template <class F>
std::string error_of(F&& read) {
  try {
    read();
  } catch (const ImportError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> ids(const ImportedFile& f) {
  std::vector<std::string> out;
  for (const Case& c : f.cases) out.push_back(c.id);
  return out;
}

// --- Wycheproof --------------------------------------------------------------

TEST(ImportWycheproof, ReadsMacTestsWithTruncatedTags) {
  const ImportedFile f = read_wycheproof(good_wycheproof(), "w.json");
  EXPECT_EQ(f.format, Format::kWycheproof);
  EXPECT_EQ(f.algorithm, "HMACSHA256");
  EXPECT_THAT(ids(f), ElementsAre("tcId 1", "tcId 2", "tcId 3", "tcId 4", "tcId 5"));
  for (const Case& c : f.cases) {
    EXPECT_EQ(c.algorithm, "hmac-sha256");
    EXPECT_TRUE(c.skip.empty()) << c.skip;
  }
  const auto& m3 = std::get<MacCase>(f.cases[2].body);
  EXPECT_EQ(m3.mac_len, 16u);
  EXPECT_EQ(m3.expect, Expect::kMatch);
  EXPECT_EQ(std::get<MacCase>(f.cases[1].body).expect, Expect::kMismatch);
  EXPECT_EQ(std::get<MacCase>(f.cases[4].body).expect, Expect::kEither);
}

TEST(ImportWycheproof, ReadsHmacSha512_224) {
  const ImportedFile f = read_wycheproof(kWycheproofSha512_224, "s.json");
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[0].algorithm, "hmac-sha512-224");
  EXPECT_EQ(std::get<MacCase>(f.cases[0].body).mac_len, 28u);
  EXPECT_EQ(std::get<MacCase>(f.cases[1].body).expect, Expect::kMismatch);
}

TEST(ImportWycheproof, UnsupportedFilesAreCountedAsSkipped) {
  const ImportedFile f = read_wycheproof(kWycheproofSha3, "s.json");
  EXPECT_THAT(ids(f), ElementsAre("tcId 1", "tcId 2"));
  for (const Case& c : f.cases) EXPECT_EQ(c.skip, "HMACSHA3-224: not an algorithm of lockstep");
}

TEST(ImportWycheproof, MalformedFilesNameFileTestAndField) {
  const std::string good = good_wycheproof();
  EXPECT_EQ(error_of([&] { read_wycheproof(kWycheproof, "w.json"); }),
            "w.json: tcId 3: field 'tag': odd number of hex digits");
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, R"("key": "4a656665",)", ""), "w.json"); }),
            "w.json: tcId 1: field 'key': missing");
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, R"("tcId": 2,)", R"("tcId": 1,)"), "w.json"); }),
            "w.json: tcId 1: field 'tcId': duplicate (also at testGroups[0].tests[0])");
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, R"("numberOfTests": 5)", R"("numberOfTests": 6)"), "w.json"); }),
            "w.json: field 'numberOfTests': is 6 but the file has 5 tests");
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, R"("result": "invalid")", R"("result": "bogus")"), "w.json"); }),
            "w.json: tcId 2: field 'result': unknown result 'bogus' (valid, invalid or acceptable)");
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, R"("comment": "flipped",)", R"("comment": "flipped", "extra": 1,)"), "w.json"); }),
            "w.json: tcId 2: field 'extra': unknown field");
  // A valid test's tag must have the group's tagSize.
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "5bdcc1"), "w.json"); }),
            "w.json: tcId 1: field 'tag': has 3 bytes, tagSize is 256 bits");
  EXPECT_EQ(error_of([&] { read_wycheproof(replace(good, R"("tagSize": 128)", R"("tagSize": 264)"), "w.json"); }),
            "w.json: testGroups[1]: field 'tagSize': 264 bits, expected 1..256");
  EXPECT_THAT(error_of([&] { read_wycheproof(good.substr(0, 100), "w.json"); }), HasSubstr("w.json: not valid JSON: "));
  EXPECT_EQ(error_of([&] { read_wycheproof(R"({"algorithm": "HMACSHA256", "algorithm": "x"})", "w.json"); }),
            "w.json: field 'algorithm': duplicate key in one object");
}

// The AEAD files: a valid test's ct is the keystream from block 1; what
// only the tag decides, and other nonce sizes, are skipped with the reason.
TEST(ImportWycheproof, AeadFilesGiveTheKeystreamFromBlock1) {
  const ImportedFile f = read_wycheproof(kWycheproofAead, "a.json");
  EXPECT_THAT(ids(f), ElementsAre("tcId 1", "tcId 2", "tcId 3"));
  EXPECT_EQ(f.cases[0].algorithm, "chacha20");
  const auto& s = std::get<StreamCase>(f.cases[0].body);
  EXPECT_EQ(s.offset, 64u);
  EXPECT_EQ(s.nonce.size(), 12u);
  EXPECT_EQ(s.in.size(), 114u);
  EXPECT_EQ(s.out.size(), 114u);
  EXPECT_EQ(f.cases[1].skip, "invalid: the Poly1305 tag decides it (lockstep has no Poly1305)");
  EXPECT_EQ(f.cases[2].skip,
            "invalid: a nonce of another size than 12 bytes, which CHACHA20-POLY1305 must refuse (lockstep's nonce "
            "size is fixed by its type)");
  const ImportedFile x = read_wycheproof(kWycheproofXAead, "x.json");
  ASSERT_EQ(x.cases.size(), 1u);
  EXPECT_EQ(x.cases[0].algorithm, "xchacha20");
  EXPECT_EQ(std::get<StreamCase>(x.cases[0].body).nonce.size(), 24u);
  EXPECT_EQ(std::get<StreamCase>(x.cases[0].body).offset, 64u);
}

TEST(ImportWycheproof, MalformedAeadFilesNameFileTestAndField) {
  auto err = [](const std::string& text) { return error_of([&] { read_wycheproof(text, "a.json"); }); };
  EXPECT_EQ(err(replace(kWycheproofAead, "86cec64b6116\"", "86cec64b61\"")),
            "a.json: tcId 1: field 'ct': has 113 bytes, msg has 114");
  EXPECT_EQ(err(replace(kWycheproofAead, "\"ivSize\": 96", "\"ivSize\": 88")),
            "a.json: tcId 1: field 'iv': has 12 bytes, ivSize is 88 bits");
  EXPECT_EQ(err(replace(kWycheproofAead, "aead_test_schema_v1.json", "mac_test_schema_v1.json")),
            "a.json: field 'schema': 'mac_test_schema_v1.json' for CHACHA20-POLY1305 (expected aead_test_schema_v1.json)");
  EXPECT_EQ(err(replace(kWycheproofAead, "\"aad\": \"\", ", "")), "a.json: tcId 3: field 'aad': missing");
}

// StreamCipherTest groups: the 32-bit counter as it is; a 64-bit one (here
// XChaCha20's, libsodium's layout) while its high word is zero and does not
// change; where Wycheproof expects the 32-bit counter to be refused, lockstep
// wraps, and says so.
TEST(ImportWycheproof, StreamCipherGroupsMapOntoRfc8439) {
  const ImportedFile f = read_wycheproof(kWycheproofStream, "c.json");
  EXPECT_EQ(f.format, Format::kWycheproof);
  EXPECT_EQ(f.algorithm, "CHACHA20");
  ASSERT_EQ(f.cases.size(), 9u);
  EXPECT_EQ(f.cases[0].algorithm, "chacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[0].body).offset, 64u);
  EXPECT_EQ(std::get<StreamCase>(f.cases[1].body).offset, uint64_t{0xffffffff} * 64);
  EXPECT_EQ(f.cases[2].skip,
            "not applicable: Wycheproof expects rejection at the end of the 32-bit counter, which wraps as "
            "RFC 8439's counter does in the kernel's chacha_crypt()");
  EXPECT_TRUE(std::get<StreamCase>(f.cases[3].body).in.empty());  // valid, empty, no ct
  EXPECT_EQ(f.cases[4].algorithm, "xchacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[4].body).offset, uint64_t{0xffffffff} * 64);
  EXPECT_EQ(f.cases[5].skip,
            "64-bit counter carries from word 12 into word 13 within the message (original ChaCha layout; "
            "lockstep's 32-bit counter wraps)");
  EXPECT_EQ(f.cases[6].skip,
            "XChaCha20 with a 64-bit counter at or beyond 2^32 (lockstep's XChaCha20 holds the first inner "
            "nonce word at zero)");
  EXPECT_EQ(f.cases[7].skip,
            "invalid: rejection at the end of a 64-bit counter (lockstep's counter is RFC 8439's 32 bits)");
  EXPECT_EQ(f.cases[8].skip, "Salsa20: not an algorithm of lockstep");
}

TEST(ImportWycheproof, MalformedStreamFilesNameFileTestAndField) {
  auto err = [](const std::string& text) { return error_of([&] { read_wycheproof(text, "c.json"); }); };
  EXPECT_EQ(err(replace(kWycheproofStream, "\"initialCounter\": \"01000000\"", "\"initialCounter\": \"010000\"")),
            "c.json: tcId 1: field 'initialCounter': has 3 bytes, counterSize is 32 bits");
  EXPECT_EQ(err(replace(kWycheproofStream, "\"ct\": \"ac\", ", "")), "c.json: tcId 2: field 'ct': missing in a valid test");
  EXPECT_EQ(err(replace(kWycheproofStream, "\"ct\": \"ac\"", "\"ct\": \"acac\"")),
            "c.json: tcId 2: field 'ct': has 2 bytes, msg has 1");
  EXPECT_EQ(err(replace(kWycheproofStream, "\"counterSize\": 32", "\"counterSize\": 48")),
            "c.json: testGroups[0]: field 'counterSize': 48 bits, expected 32 or 64");
  EXPECT_EQ(err(replace(kWycheproofStream, "\"comment\": \"block 1\",", "\"comment\": \"block 1\", \"aad\": \"\",")),
            "c.json: tcId 1: field 'aad': unknown field");
  EXPECT_EQ(err(replace(kWycheproofStream, "\"numberOfTests\": 9", "\"numberOfTests\": 8")),
            "c.json: field 'numberOfTests': is 8 but the file has 9 tests");
}

// --- ACVP --------------------------------------------------------------------

TEST(ImportAcvp, ReadsAftMctAndLdtFromPromptAndExpectedResults) {
  const ImportedFile f = read_acvp(kAcvpPrompt, "p.json", kAcvpExpected, "e.json");
  EXPECT_EQ(f.format, Format::kAcvp);
  EXPECT_EQ(f.algorithm, "SHA2-256");
  EXPECT_THAT(ids(f), ElementsAre("tgId 1 tcId 1", "tgId 1 tcId 2", "tgId 1 tcId 3", "tgId 2 tcId 4",
                                  "tgId 3 tcId 5", "tgId 4 tcId 6", "tgId 4 tcId 7"));
  EXPECT_TRUE(std::get<HashCase>(f.cases[1].body).msg.empty());  // "00" for len 0
  EXPECT_EQ(f.cases[2].skip, "bit-oriented message; lockstep hashes bytes");
  EXPECT_EQ(std::get<MonteCase>(f.cases[3].body).msg_len, 0u);
  EXPECT_EQ(std::get<MonteCase>(f.cases[4].body).msg_len, 100u);
  EXPECT_EQ(std::get<LargeHashCase>(f.cases[6].body).total, 3000001u);
}

TEST(ImportAcvp, HmacLengthsPerGroupAndPerTest) {
  const ImportedFile f1 = read_acvp_projection(kAcvpHmacV1, "h1.json");
  ASSERT_EQ(f1.cases.size(), 1u);
  EXPECT_EQ(f1.cases[0].algorithm, "hmac-sha384");
  EXPECT_EQ(std::get<MacCase>(f1.cases[0].body).mac_len, 24u);

  const ImportedFile f2 = read_acvp_projection(kAcvpHmacV2, "h2.json");
  ASSERT_EQ(f2.cases.size(), 2u);
  EXPECT_EQ(std::get<MacCase>(f2.cases[0].body).mac_len, 16u);
  EXPECT_EQ(f2.cases[1].skip, "bit-oriented key, message or MAC; lockstep works in bytes");
}

TEST(ImportAcvp, ReadsSha512t) {
  const ImportedFile f = read_acvp_projection(kAcvpSha512_224, "x.json");
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[0].algorithm, "sha512-224");
  EXPECT_EQ(std::get<HashCase>(f.cases[1].body).md.size(), 28u);
  // SHA-512/256 digests have 32 bytes, not 28.
  EXPECT_EQ(error_of([&] { read_acvp_projection(replace(kAcvpSha512_224, "SHA2-512/224", "SHA2-512/256"), "x.json"); }),
            "x.json: tgId 1 tcId 1: field 'md': has 28 bytes, expected 32");
}

TEST(ImportAcvp, UnsupportedAlgorithmsAndTestTypesAreCounted) {
  const std::string t = R"({"vsId": 0, "algorithm": "SHA-1", "revision": "1.0", "testGroups": [
    {"tgId": 1, "testType": "AFT", "tests": [{"tcId": 1, "msg": "00", "len": 0, "md": "00"}]}]})";
  const ImportedFile f = read_acvp_projection(t, "x.json");
  ASSERT_EQ(f.cases.size(), 1u);
  EXPECT_EQ(f.cases[0].skip, "SHA-1: not an algorithm of lockstep");
  const ImportedFile g = read_acvp_projection(replace(t, "SHA-1", "SHA3-256"), "x.json");
  EXPECT_EQ(g.cases[0].skip, "SHA3-256: not an algorithm of lockstep");
  const ImportedFile h = read_acvp_projection(replace(replace(t, "SHA-1", "SHA2-256"), "AFT", "VOT"), "x.json");
  EXPECT_EQ(h.cases[0].skip, "ACVP test type VOT (lockstep reads AFT, MCT and LDT)");
}

TEST(ImportAcvp, MalformedFilesNameFileTestAndField) {
  auto pair = [](const std::string& p, const std::string& e) {
    return error_of([&] { read_acvp(p, "p.json", e, "e.json"); });
  };
  EXPECT_EQ(pair(kAcvpPrompt, replace(kAcvpExpected, R"({"tcId": 2, "md": "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"},)", "")),
            "e.json: tgId 1 tcId 2: missing (p.json has this test)");
  EXPECT_EQ(pair(replace(kAcvpPrompt, R"({"tcId": 2, "msg": "00", "len": 0},)", ""), kAcvpExpected),
            "e.json: tgId 1 tcId 2: not in p.json");
  EXPECT_EQ(pair(kAcvpPrompt, replace(kAcvpExpected, "BA7816BF8F01CFEA", "BA7816BF8F01CF")),
            "e.json: tgId 1 tcId 1: field 'md': has 31 bytes, expected 32");
  EXPECT_EQ(pair(replace(kAcvpPrompt, R"("len": 24)", R"("len": 32)"), kAcvpExpected),
            "p.json: tgId 1 tcId 1: field 'msg': has 3 bytes, the length says 32 bits");
  EXPECT_EQ(pair(replace(kAcvpPrompt, R"("len": 24)", R"("len": "24")"), kAcvpExpected),
            "p.json: tgId 1 tcId 1: field 'len': must be a non-negative integer, not string");
  EXPECT_EQ(pair(replace(kAcvpPrompt, R"("mctVersion": "standard")", R"("mctVersion": "other")"), kAcvpExpected),
            "p.json: tgId 2 tcId 4: field 'mctVersion': unknown version 'other' (standard or alternate)");
  EXPECT_EQ(pair(kAcvpPrompt, replace(kAcvpExpected, R"("algorithm": "SHA2-256")", R"("algorithm": "SHA2-224")")),
            "e.json: field 'algorithm': is 'SHA2-224', p.json has 'SHA2-256'");
  EXPECT_EQ(pair(replace(kAcvpPrompt, R"("contentLength": 24, "fullLength": 80)", R"("contentLength": 16, "fullLength": 80)"), kAcvpExpected),
            "p.json: tgId 4 tcId 6: field 'largeMsg.contentLength': 16 bits, but content has 3 bytes");
  EXPECT_EQ(pair(kAcvpPrompt, replace(kAcvpExpected, R"("resultsArray": [
    {"md": "0D0A4B6DC0BA9A5E7089A00EB0042F465641FA860944BCB074A88D76E8DF7893"},
    {"md": "88CB2447640F5A4E7684EB7D06FE8A6EC175B492114BB88C7AB489D5EEFD1BD9"}])", R"("resultsArray": [])")),
            "e.json: tgId 2 tcId 4: field 'resultsArray': has 0 entries, expected 1..100");
  EXPECT_THAT(pair("[1, 2]", kAcvpExpected), HasSubstr("p.json: field '(document)': must be an ACVP vector set"));
}

TEST(ImportAcvp, TheServerArrayFormIsRead) {
  const std::string p = "[{\"acvVersion\": \"1.0\"}, " + kAcvpPrompt + "]";
  EXPECT_EQ(read_acvp(p, "p.json", kAcvpExpected, "e.json").cases.size(), 7u);
}

// --- CAVP --------------------------------------------------------------------

TEST(ImportCavp, ReadsShortMsgWithCrlfAndTheLenZeroPlaceholder) {
  const ImportedFile f = read_cavp(kCavpShort, "SHA256ShortMsg.rsp");
  EXPECT_EQ(f.format, Format::kCavp);
  EXPECT_EQ(f.algorithm, "SHA-256");
  EXPECT_THAT(ids(f), ElementsAre("line 7", "line 11", "line 15"));
  EXPECT_TRUE(std::get<HashCase>(f.cases[0].body).msg.empty());
  EXPECT_EQ(f.cases[2].skip, "bit-oriented message; lockstep hashes bytes");
}

TEST(ImportCavp, ReadsTheMonteCarloTest) {
  const ImportedFile f = read_cavp(kCavpMonte, "SHA224Monte.rsp");
  ASSERT_EQ(f.cases.size(), 1u);
  EXPECT_EQ(f.cases[0].id, "line 6");
  EXPECT_EQ(f.cases[0].algorithm, "sha224");
  EXPECT_EQ(std::get<MonteCase>(f.cases[0].body).checkpoints.size(), 2u);
}

TEST(ImportCavp, TheAlgorithmComesFromTheHeaderOrTheFileName) {
  // [L = 32] alone could be SHA-256 or SHA-512/256.
  const std::string no_header = kCavpShort.substr(kCavpShort.find("\r\n[L"));
  EXPECT_EQ(read_cavp(no_header, "dir/SHA256LongMsg.rsp").algorithm, "SHA-256");
  const ImportedFile f = read_cavp(no_header, "SHA512_256ShortMsg.rsp");
  EXPECT_EQ(f.cases.size(), 3u);
  EXPECT_EQ(f.algorithm, "SHA-512/256");
  EXPECT_EQ(f.cases[0].algorithm, "sha512-256");
  EXPECT_EQ(error_of([&] { read_cavp(no_header, "x.rsp"); }),
            "x.rsp: cannot tell the algorithm: no \"SHA-...\" header comment, and the file name does not start with SHA<n>");
}

TEST(ImportCavp, MalformedFilesNameFileLineAndField) {
  auto err = [](const std::string& text) { return error_of([&] { read_cavp(text, "c.rsp"); }); };
  EXPECT_EQ(err(replace(kCavpShort, "ba7816bf8f01cfea", "ba7816bf8f01cf")),
            "c.rsp: line 11: field 'MD': has 31 bytes, expected 32");
  EXPECT_EQ(err(replace(kCavpShort, "Len = 24", "Len = 32")),
            "c.rsp: line 11: field 'Msg': has 3 bytes, Len says 32 bits");
  EXPECT_EQ(err(replace(kCavpShort, "[L = 32]", "[L = 28]")),
            "c.rsp: line 5: field 'L': 28 bytes, but SHA-256 digests have 32");
  EXPECT_EQ(err(replace(kCavpShort, "Msg = 616263\r\n", "")),
            "c.rsp: line 11: field 'Msg': missing before MD");
  EXPECT_EQ(err(replace(kCavpShort, "Len = 24", "Length = 24")),
            "c.rsp: line 11: field 'Length': unknown field");
  EXPECT_EQ(err(replace(kCavpShort, "Msg = 616263", "Msg = 61626")),
            "c.rsp: line 11: field 'Msg': odd number of hex digits");
  EXPECT_EQ(err(replace(kCavpShort, "Len = 24", "Len = 24x")), "c.rsp: line 11: field 'Len': not a number");
  EXPECT_EQ(err(replace(kCavpShort, "[L = 32]\r\n", "")), "c.rsp: line 6: field 'Len': before any [L = n] section");
  EXPECT_EQ(err(kCavpShort + "Len = 8\r\n"), "c.rsp: line 18: field 'MD': missing at the end of the file");
  EXPECT_EQ(err(replace(kCavpMonte, "COUNT = 1", "COUNT = 2")),
            "c.rsp: line 6: field 'COUNT': is 2 at line 11, expected 1");
  EXPECT_EQ(err(replace(kCavpShort, "MD = e3b0", "MD e3b0")), "c.rsp: line 7: expected 'name = value'");
}

// --- Botan -------------------------------------------------------------------

TEST(ImportBotan, ReadsChachaHmacAndSha2Sections) {
  const ImportedFile f = read_botan(kBotan, "b.vec");
  EXPECT_EQ(f.format, Format::kBotan);
  EXPECT_EQ(f.algorithm, "ChaCha(20), ChaCha(12), ChaCha(8), HMAC(SHA-256), HMAC(SHA-512-256), SHA-256, SHA-384, "
                         "Poly1305, ChaCha(20), ChaCha20Poly1305");
  ASSERT_EQ(f.cases.size(), 20u);
  EXPECT_EQ(f.cases[0].id, "line 6");
  EXPECT_EQ(f.cases[0].algorithm, "chacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[1].body).offset, 63u);
  EXPECT_EQ(f.cases[3].algorithm, "xchacha20");
  EXPECT_EQ(f.cases[5].skip, "128-bit key: lockstep's ChaCha takes 256-bit keys");
  // No Nonce: Botan's 8 zero bytes in Bernstein's layout, from block 0,
  // which is RFC 8439's layout with a zero first nonce word.
  EXPECT_EQ(f.cases[6].algorithm, "chacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[6].body).nonce, Bytes(12, 0));
  EXPECT_EQ(f.cases[7].skip, "keystream beyond block 2^32 - 1 (lockstep's counter is 32 bits)");
  EXPECT_EQ(f.cases[8].algorithm, "chacha12");
  EXPECT_EQ(f.cases[9].skip, "ChaCha(8): lockstep has ChaCha20 and ChaCha12");
  EXPECT_EQ(f.cases[10].algorithm, "hmac-sha256");
  EXPECT_EQ(f.cases[11].algorithm, "hmac-sha512-256");
  EXPECT_EQ(f.cases[12].algorithm, "sha256");
  EXPECT_EQ(f.cases[14].algorithm, "sha384");
  EXPECT_EQ(f.cases[15].skip, "Poly1305: not an algorithm of lockstep");
  // Block 2^32 of Bernstein's 64-bit counter: the high word becomes the
  // first nonce word, the low word the 32-bit counter.
  const auto& high = std::get<StreamCase>(f.cases[16].body);
  EXPECT_EQ(high.nonce, (Bytes{1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(high.offset, 0u);
  EXPECT_EQ(f.cases[17].skip,
            "64-bit counter carries from word 12 into word 13 within the message (original ChaCha layout; "
            "lockstep's 32-bit counter wraps)");
  // The AEAD: the ciphertext without the tag, from block 1.
  EXPECT_EQ(f.cases[18].algorithm, "chacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[18].body).offset, 64u);
  EXPECT_EQ(std::get<StreamCase>(f.cases[18].body).out.size(), 114u);
  // draft-agl's AEAD: Bernstein's layout from block 1, the nonce behind a
  // zero high counter word.
  EXPECT_EQ(f.cases[19].algorithm, "chacha20");
  const auto& agl = std::get<StreamCase>(f.cases[19].body);
  EXPECT_EQ(agl.offset, 64u);
  EXPECT_EQ(agl.nonce, (Bytes{0, 0, 0, 0, 0xcd, 0x7c, 0xf6, 0x7b, 0xe3, 0x9c, 0x79, 0x4a}));
  EXPECT_EQ(agl.out.size(), 10u);
}

TEST(ImportBotan, MalformedFilesNameFileLineAndField) {
  auto err = [](const std::string& text) { return error_of([&] { read_botan(text, "b.vec"); }); };
  EXPECT_EQ(err(replace(kBotan, "Out = E3B0C44298FC1C14", "Out = E3B0C44298FC1C")),
            "b.vec: line 64: field 'Out': has 31 bytes, expected 32");
  EXPECT_EQ(err(replace(kBotan, "In = 616263\nOut = BA78", "Msg = 616263\nOut = BA78")),
            "b.vec: line 67: field 'Msg': unknown field in a [SHA-256] test");
  EXPECT_EQ(err(replace(kBotan, "Key = 4A656665\nIn = 7768617420646F2079612077616E7420666F72206E6F7468696E673F\nOut = 5BDC",
                        "In = 7768617420646F2079612077616E7420666F72206E6F7468696E673F\nOut = 5BDC")),
            "b.vec: line 54: field 'Key': missing");
  EXPECT_EQ(err(replace(kBotan, "Nonce = dca89c467002c7fd9980abd1", "Nonce = dca89c467002c7fd9980")),
            "b.vec: line 43: field 'Nonce': has 10 bytes, expected 8, 12 or 24");
  EXPECT_EQ(err(replace(kBotan, "Seek = 35516770624", "Seek = -1")),
            "b.vec: line 43: field 'Seek': not a byte position (a decimal number)");
  EXPECT_EQ(err(replace(kBotan, "In = 5d", "In = 5d5d")), "b.vec: line 43: field 'In': has 2 bytes, Out has 1");
  EXPECT_EQ(err(replace(kBotan, "Seek = 64\n", "Seek = 64\nSeek = 64\n")),
            "b.vec: line 15: field 'Seek': twice in one test (line 18; Out missing?)");
  EXPECT_EQ(err(replace(kBotan, "Out = 0a", "Out: 0a")), "b.vec: line 47: expected 'Name = value'");
  EXPECT_EQ(err("[SHA-256]\nIn = 00\n"), "b.vec: line 2: field 'Out': missing: the test ends without it");
  EXPECT_EQ(err("[SHA-256\nIn = 00\n"), "b.vec: line 1: expected a section header [Algorithm]");
  // The AEAD's Out is the ciphertext and a 16-byte tag.
  EXPECT_EQ(err(replace(kBotan, "2ecbd0600691\n", "2ecbd06006\n")),
            "b.vec: line 94: field 'Out': has 129 bytes, expected In's 114 and a 16-byte tag");
  EXPECT_EQ(err(replace(kBotan, "AD = 50515253c0c1c2c3c4c5c6c7", "Tag = 00")),
            "b.vec: line 94: field 'Tag': unknown field in a [ChaCha20Poly1305] test");
}

TEST(ImportBotan, TestsOfOtherFormatsAreCountedByTheirOutput) {
  const ImportedFile f = read_botan("Key = 00\nAD = \nNonce = 00\nIn = \nOut = 00\n\nKey = 01\nOut = 01\n", "x.vec");
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.algorithm, "(no section header)");
  EXPECT_EQ(f.cases[0].skip, "tests before any [algorithm] header");
  EXPECT_EQ(f.cases[1].id, "line 7");
}

// libsodium's XChaCha20-Poly1305 files: Botan's format without a header,
// named by the file. Zero key, nonce 00..17, one byte: "bd" is the
// ciphertext (libsodium; OpenSSL under the HChaCha20 subkey agrees), the
// rest the tag.
TEST(ImportBotan, AHeaderlessChacha20Poly1305FileIsReadByItsName) {
  const std::string text =
      "Key = 0000000000000000000000000000000000000000000000000000000000000000\nAD = \n"
      "Nonce = 000102030405060708090a0b0c0d0e0f1011121314151617\nIn = 00\n"
      "Out = bdb0a87e27811e395f85d56d766593b258\n";
  const ImportedFile f = read_botan(text, "dir/xchacha20poly1305.size1.vec");
  EXPECT_EQ(f.algorithm, "ChaCha20Poly1305 (no section header; by the file name)");
  ASSERT_EQ(f.cases.size(), 1u);
  EXPECT_EQ(f.cases[0].algorithm, "xchacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[0].body).out, Bytes{0xbd});
  EXPECT_EQ(read_botan(text, "other.vec").cases[0].skip, "tests before any [algorithm] header");
}

// --- KizzyCode -----------------------------------------------------------------

TEST(ImportKizzycode, ReadsKeystreamsAndAeadsAndCountsTheRest) {
  const ImportedFile f = read_kizzycode(kKizzycode, "k.json");
  EXPECT_EQ(f.format, Format::kKizzycode);
  EXPECT_EQ(f.algorithm, "ChaCha20, ChaCha20-Poly1305, XChaCha20, Poly1305");
  EXPECT_THAT(ids(f), ElementsAre("crypto[0]", "crypto[1]", "crypto[2]", "crypto[3]", "error[0]", "api.tests[0]"));
  EXPECT_EQ(f.cases[0].algorithm, "chacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[0].body).offset, 0u);
  EXPECT_EQ(std::get<StreamCase>(f.cases[1].body).offset, 64u);  // the AEAD
  EXPECT_EQ(std::get<StreamCase>(f.cases[1].body).out.size(), 114u);
  EXPECT_EQ(f.cases[2].algorithm, "xchacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[2].body).in, Bytes(29, 0));  // no plaintext: the keystream
  EXPECT_EQ(f.cases[3].skip, "Poly1305: not an algorithm of lockstep");
  EXPECT_EQ(f.cases[4].skip, "invalid: the Poly1305 tag decides it (lockstep has no Poly1305)");
  EXPECT_EQ(f.cases[5].skip, "a test of the crate's API (lengths and buffers), not of the algorithm");
}

TEST(ImportKizzycode, MalformedFilesNameFileEntryAndField) {
  auto err = [](const std::string& text) { return error_of([&] { read_kizzycode(text, "k.json"); }); };
  EXPECT_EQ(err(replace(kKizzycode, "7e902ecbd0600691\"", "7e902ecbd06006\"")),
            "k.json: crypto[1]: field 'ciphertext': has 129 bytes, expected the plaintext's 114 and a 16-byte tag");
  EXPECT_EQ(err(replace(kKizzycode, "\"name\": \"poly1305\"", "\"name\": \"poly1305\", \"tag\": \"\"")),
            "k.json: crypto[3]: field 'tag': unknown field");
  EXPECT_EQ(err(replace(kKizzycode, "\"nonce\": \"b33ffd", "\"nonce\": \"b33ffdx")),
            "k.json: crypto[2]: field 'nonce': odd number of hex digits");
  EXPECT_EQ(err(replace(kKizzycode, "\"api\":", "\"apx\":")), "k.json: field 'apx': unknown field");
}

// --- Detection and robustness ------------------------------------------------

TEST(ImportDetect, TellsFormatsApart) {
  EXPECT_EQ(detect("a/hmac_sha256_test.json", good_wycheproof()).kind, Kind::kWycheproof);
  EXPECT_EQ(detect("a/prompt.json", kAcvpPrompt).kind, Kind::kAcvpPrompt);
  EXPECT_EQ(detect("a/expectedResults.json", kAcvpExpected).kind, Kind::kAcvpExpected);
  EXPECT_EQ(detect("a/internalProjection.json", R"({"vsId": 0, "algorithm": "SHA2-256", "testGroups": [
      {"tgId": 1, "tests": [{"tcId": 1, "msg": "00", "md": "00"}]}]})").kind, Kind::kAcvpProjection);
  EXPECT_EQ(detect("a/registration.json", R"({"vsId": 0, "algorithm": "SHA2-256", "revision": "1.0"})").why,
            "ACVP registration (no tests)");
  EXPECT_EQ(detect("a/SHA256ShortMsg.rsp", kCavpShort).kind, Kind::kCavp);
  EXPECT_EQ(detect("a/AES.rsp", "[ENCRYPT]\nCOUNT = 0\n").kind, Kind::kIgnored);
  EXPECT_EQ(detect("a/chacha.vec", kBotan).kind, Kind::kBotan);
  EXPECT_EQ(detect("a/chacha20_counter_test.json", kWycheproofStream).kind, Kind::kWycheproof);
  EXPECT_EQ(detect("a/xchachapoly.json", kKizzycode).kind, Kind::kKizzycode);
  EXPECT_EQ(detect("a/x.json", R"({"crypto": [], "other": 1})").kind, Kind::kIgnored);
  EXPECT_EQ(detect("a/schema.json", R"({"$schema": "x"})").why, "a JSON schema");
  EXPECT_EQ(detect("a/sha256.json", R"({"schema": "lockstep-hash-v1", "testGroups": []})").kind, Kind::kLockstep);
  EXPECT_EQ(detect("a/x.json", R"({"schema": "lockstep-nosuch-v1", "testGroups": []})").kind, Kind::kLockstep);
  EXPECT_EQ(detect("a/rfc8439.txt", "").why, "not a vector file type (.json, .rsp, .vec)");
  EXPECT_FALSE(wants_content("a/x.h"));
}

TEST(ImportLockstep, ReadsItsOwnSchemas) {
  const ImportedFile f = read_lockstep(kOwnHash, "mine.json");
  EXPECT_EQ(f.format, Format::kLockstep);
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[1].id, "tcId 2");
  EXPECT_EQ(f.cases[1].algorithm, "sha256");
  EXPECT_EQ(std::get<HashCase>(f.cases[1].body).expect, Expect::kMismatch);
}

TEST(ImportLockstep, AnUnknownLockstepSchemaNamesFileAndField) {
  try {
    read_lockstep(replace(kOwnHash, "lockstep-hash-v1", "lockstep-hash-v9"), "mine.json");
    ADD_FAILURE() << "no error";
  } catch (const VectorError& e) {
    EXPECT_STREQ(e.what(), "mine.json: field 'schema': unknown schema 'lockstep-hash-v9'");
  }
}

// Mutated inputs end in ImportError or a result, never another exception
// (the fuzzer checks the same for crashes and allocations).
TEST(ImportRobustness, MutatedInputsOnlyThrowImportError) {
  std::mt19937_64 rng(1);
  const std::pair<std::string, std::function<void(const std::string&)>> readers[] = {
      {good_wycheproof(), [](const std::string& t) { read_wycheproof(t, "m.json"); }},
      {kAcvpPrompt, [](const std::string& t) { read_acvp(t, "p.json", kAcvpExpected, "e.json"); }},
      {kAcvpExpected, [](const std::string& t) { read_acvp(kAcvpPrompt, "p.json", t, "e.json"); }},
      {kCavpShort + kCavpMonte.substr(kCavpMonte.find("[L")), [](const std::string& t) { read_cavp(t, "SHA256Monte.rsp"); }},
      {kBotan, [](const std::string& t) { read_botan(t, "m.vec"); }},
      {kWycheproofAead, [](const std::string& t) { read_wycheproof(t, "a.json"); }},
      {kWycheproofStream, [](const std::string& t) { read_wycheproof(t, "c.json"); }},
      {kKizzycode, [](const std::string& t) { read_kizzycode(t, "k.json"); }},
  };
  static const char kBytes[] = "0123456789abcdefABCDEF =[]{}\":,\r\n#-xL";
  for (const auto& [seed, read] : readers) {
    for (int i = 0; i < 400; ++i) {
      std::string t = seed;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !t.empty(); ++e) {
        const size_t at = rng() % t.size();
        switch (rng() % 3) {
          case 0: t[at] = kBytes[rng() % (sizeof(kBytes) - 1)]; break;
          case 1: t.erase(at, 1 + rng() % 8); break;
          default: t.insert(at, 1, kBytes[rng() % (sizeof(kBytes) - 1)]); break;
        }
      }
      try {
        read(t);
      } catch (const ImportError&) {
      } catch (const std::exception& e) {
        ADD_FAILURE() << "not an ImportError: " << e.what() << "\ninput:\n" << t;
      }
    }
  }
}

}  // namespace
}  // namespace lockstep::vectors::import
