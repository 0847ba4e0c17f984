// The importers on small inline files of every format: what they read, what
// they skip and why, that every available backend passes what they read,
// that a wrong expected value fails with the test's id, and that a
// malformed file is an ImportError naming file, test and field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

#include "vectors/import/import.h"
#include "vectors/import/run.h"

namespace lockstep::vectors::import {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Runs every case on every usable backend; returns the report.
FileReport run_all(const ImportedFile& f, uint64_t ldt_max = kDefaultLdtMax) {
  RunOptions o;
  o.ldt_max = ldt_max;
  return run_file(f, o);
}

// expect_all_pass: every backend that ran passed every runnable case.
void expect_all_pass(const FileReport& r, size_t runnable) {
  ASSERT_FALSE(r.backends.empty()) << r.name;
  for (const BackendReport& b : r.backends) {
    EXPECT_EQ(b.run, runnable) << b.backend->name;
    EXPECT_EQ(b.passed, runnable) << b.backend->name;
    EXPECT_EQ(b.failed, 0u) << b.backend->name << ": " << (b.failures.empty() ? "" : b.failures[0]);
  }
}

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

// replace returns `text` with the first `from` replaced by `to`.
std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// --- Wycheproof --------------------------------------------------------------

// RFC 4231 test case 2 under HMAC-SHA256, full and truncated to 128 bits.
const std::string kWycheproof = R"({
  "algorithm": "HMACSHA256",
  "schema": "mac_test_schema_v1.json",
  "numberOfTests": 5,
  "header": ["test"],
  "notes": {"Ktv": {"bugType": "BASIC", "description": "known answer"}},
  "testGroups": [
    {"type": "MacTest", "source": {"name": "test", "version": "1"}, "keySize": 32, "tagSize": 256,
     "tests": [
      {"tcId": 1, "comment": "RFC 4231 2", "flags": ["Ktv"], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "result": "valid"},
      {"tcId": 2, "comment": "flipped", "flags": [], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3842", "result": "invalid"}]},
    {"type": "MacTest", "source": {"name": "test", "version": "1"}, "keySize": 32, "tagSize": 128,
     "tests": [
      {"tcId": 3, "comment": "truncated", "flags": [], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575c", "result": "valid"},
      {"tcId": 4, "comment": "one byte short", "flags": [], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575", "result": "invalid"},
      {"tcId": 5, "comment": "either", "flags": [], "key": "4a656665",
       "msg": "", "tag": "00000000000000000000000000000000", "result": "acceptable"}]}
  ]
})";

// The 128-bit tag above has a digit missing on purpose for the malformed
// test; the good file has the full 16 bytes.
std::string good_wycheproof() {
  return replace(kWycheproof, "\"5bdcc146bf60754e6a042426089575c\"", "\"5bdcc146bf60754e6a042426089575c7\"");
}

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
  expect_all_pass(run_all(f), 5);
}

TEST(ImportWycheproof, AWrongValidTagFailsWithItsId) {
  const std::string text =
      replace(good_wycheproof(), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3844");
  const FileReport r = run_all(read_wycheproof(text, "w.json"));
  ASSERT_FALSE(r.backends.empty());
  for (const BackendReport& b : r.backends) {
    EXPECT_EQ(b.failed, 1u) << b.backend->name;
    ASSERT_EQ(b.failures.size(), 1u);
    EXPECT_THAT(b.failures[0], HasSubstr("tcId 1 (hmac-sha256): first difference at offset 31 of 32 bytes "
                                         "(1 byte differs)"));
    EXPECT_THAT(b.failures[0], HasSubstr("got ...c75a003f089d2739839dec58b964ec38[43](end), "
                                         "expected ...c75a003f089d2739839dec58b964ec38[44](end)"));
  }
}

TEST(ImportWycheproof, UnsupportedFilesAreCountedAsSkipped) {
  const std::string sha512_224 = R"({"algorithm": "HMACSHA512/224", "schema": "mac_test_schema_v1.json",
    "numberOfTests": 2, "testGroups": [{"type": "MacTest", "keySize": 256, "tagSize": 224, "tests": [
      {"tcId": 1, "comment": "", "flags": [], "key": "", "msg": "", "tag": "", "result": "valid"},
      {"tcId": 2, "comment": "", "flags": [], "key": "", "msg": "", "tag": "", "result": "invalid"}]}]})";
  const ImportedFile f = read_wycheproof(sha512_224, "s.json");
  ASSERT_EQ(f.cases.size(), 2u);
  const FileReport r = run_all(f);
  EXPECT_EQ(r.cases, 2u);
  EXPECT_TRUE(r.backends.empty());
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].reason, "HMACSHA512/224: lockstep has no SHA-512/224");
  EXPECT_THAT(r.skipped[0].ids, ElementsAre("tcId 1", "tcId 2"));

  const std::string aead = R"({"algorithm": "XCHACHA20-POLY1305", "schema": "aead_test_schema_v1.json",
    "numberOfTests": 1, "testGroups": [{"type": "AeadTest", "ivSize": 192, "keySize": 256, "tagSize": 128,
      "tests": [{"tcId": 7, "comment": "", "flags": [], "key": "00", "iv": "00", "aad": "", "msg": "",
                 "ct": "", "tag": "00", "result": "valid"}]}]})";
  const ImportedFile a = read_wycheproof(aead, "a.json");
  ASSERT_EQ(a.cases.size(), 1u);
  EXPECT_EQ(a.cases[0].id, "tcId 7");
  EXPECT_EQ(a.cases[0].skip, "XCHACHA20-POLY1305: lockstep has no Poly1305");
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

// --- ACVP --------------------------------------------------------------------

const std::string kAcvpPrompt = R"({"vsId": 42, "algorithm": "SHA2-256", "revision": "1.0", "isSample": true,
 "testGroups": [
  {"tgId": 1, "testType": "AFT", "tests": [
    {"tcId": 1, "msg": "616263", "len": 24},
    {"tcId": 2, "msg": "00", "len": 0},
    {"tcId": 3, "msg": "6180", "len": 9}]},
  {"tgId": 2, "testType": "MCT", "mctVersion": "standard", "tests": [
    {"tcId": 4, "msg": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "len": 256}]},
  {"tgId": 3, "testType": "MCT", "mctVersion": "alternate", "tests": [
    {"tcId": 5, "msg": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F60616263", "len": 800}]},
  {"tgId": 4, "testType": "LDT", "tests": [
    {"tcId": 6, "largeMsg": {"content": "616263", "contentLength": 24, "fullLength": 80, "expansionTechnique": "repeating"}},
    {"tcId": 7, "largeMsg": {"content": "616263", "contentLength": 24, "fullLength": 24000008, "expansionTechnique": "repeating"}}]}
 ]})";

const std::string kAcvpExpected = R"({"vsId": 42, "algorithm": "SHA2-256", "revision": "1.0", "isSample": true,
 "testGroups": [
  {"tgId": 1, "tests": [
    {"tcId": 1, "md": "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"},
    {"tcId": 2, "md": "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"},
    {"tcId": 3, "md": "0000000000000000000000000000000000000000000000000000000000000000"}]},
  {"tgId": 2, "tests": [{"tcId": 4, "resultsArray": [
    {"md": "0D0A4B6DC0BA9A5E7089A00EB0042F465641FA860944BCB074A88D76E8DF7893"},
    {"md": "88CB2447640F5A4E7684EB7D06FE8A6EC175B492114BB88C7AB489D5EEFD1BD9"}]}]},
  {"tgId": 3, "tests": [{"tcId": 5, "resultsArray": [
    {"md": "5DB78A6EAA199BB90407FE662E07E97E2E7E8B29AF29E0433B4DD8CB06B9DDED"},
    {"md": "60995359417D135608924A0EDF36D8D34EBE1070DA09A1A18DEF3D738D4A8DCC"}]}]},
  {"tgId": 4, "tests": [
    {"tcId": 6, "md": "DEC3CBBDB5A2455F024763C222865100142D98BA9441257693980FBDAFB58EFE"},
    {"tcId": 7, "md": "52F75B2C73DFDA22BA0D459CEECC20F05BCE746971D619DF2E21F334332B1C12"}]}
 ]})";

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
  // tcId 7 streams 3 MB, in chunks that end mid-copy.
  expect_all_pass(run_all(f), 6);
}

TEST(ImportAcvp, LargeDataTestsOverTheLimitAreSkipped) {
  const FileReport r = run_all(read_acvp(kAcvpPrompt, "p.json", kAcvpExpected, "e.json"), 1 << 20);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_EQ(r.skipped[1].reason, "ACVP large-data test over --ldt-max 1 MiB (raise it, or LOCKSTEP_ACVP_LDT_MAX)");
  EXPECT_THAT(r.skipped[1].ids, ElementsAre("tgId 4 tcId 7"));
  expect_all_pass(r, 5);
  for (const BackendReport& b : r.backends) EXPECT_EQ(b.skipped, 2u);
}

TEST(ImportAcvp, AWrongCheckpointNamesTheTestAndTheCheckpoint) {
  const std::string e = replace(kAcvpExpected, "60995359417D", "60995359417E");
  const FileReport r = run_all(read_acvp(kAcvpPrompt, "p.json", e, "e.json"));
  ASSERT_FALSE(r.backends.empty());
  for (const BackendReport& b : r.backends) {
    ASSERT_EQ(b.failures.size(), 1u) << b.backend->name;
    EXPECT_THAT(b.failures[0], HasSubstr("tgId 3 tcId 5 (sha256): resultsArray 1: first difference at offset 5"));
    EXPECT_THAT(b.failures[0], HasSubstr("got 6099535941[7d]"));
    EXPECT_THAT(b.failures[0], HasSubstr("expected 6099535941[7e]"));
  }
}

TEST(ImportAcvp, HmacLengthsPerGroupAndPerTest) {
  // Revision 1.0: lengths in the group; RFC 4231 test case 2, tag cut to 192 bits.
  const std::string v1 = R"({"vsId": 0, "algorithm": "HMAC-SHA2-384", "revision": "1.0", "isSample": false,
    "testGroups": [{"tgId": 1, "testType": "AFT", "keyLen": 32, "msgLen": 224, "macLen": 192, "tests": [
      {"tcId": 1, "key": "4A656665", "msg": "7768617420646F2079612077616E7420666F72206E6F7468696E673F",
       "mac": "AF45D2E376484031617F78D2B58A6B1B9C7EF464F5A01B47"}]}]})";
  const ImportedFile f1 = read_acvp_projection(v1, "h1.json");
  ASSERT_EQ(f1.cases.size(), 1u);
  EXPECT_EQ(f1.cases[0].algorithm, "hmac-sha384");
  expect_all_pass(run_all(f1), 1);

  // Revision 2.0: lengths per test; a 31-bit key is skipped.
  const std::string v2 = R"({"vsId": 0, "algorithm": "HMAC-SHA2-512", "revision": "2.0", "isSample": false,
    "testGroups": [{"tgId": 1, "testType": "AFT", "tests": [
      {"tcId": 1, "key": "4A656665", "keyLen": 32, "msg": "7768617420646F2079612077616E7420666F72206E6F7468696E673F",
       "msgLen": 224, "mac": "164B7A7BFCF819E2E395FBE73B56E0A3", "macLen": 128},
      {"tcId": 2, "key": "4A656664", "keyLen": 31, "msg": "", "msgLen": 0, "mac": "00", "macLen": 8}]}]})";
  const ImportedFile f2 = read_acvp_projection(v2, "h2.json");
  ASSERT_EQ(f2.cases.size(), 2u);
  EXPECT_EQ(f2.cases[1].skip, "bit-oriented key, message or MAC; lockstep works in bytes");
  expect_all_pass(run_all(f2), 1);
}

TEST(ImportAcvp, UnsupportedAlgorithmsAndTestTypesAreCounted) {
  const std::string t = R"({"vsId": 0, "algorithm": "SHA2-512/256", "revision": "1.0", "testGroups": [
    {"tgId": 1, "testType": "AFT", "tests": [{"tcId": 1, "msg": "00", "len": 0, "md": "00"}]}]})";
  const ImportedFile f = read_acvp_projection(t, "x.json");
  ASSERT_EQ(f.cases.size(), 1u);
  EXPECT_EQ(f.cases[0].skip, "SHA2-512/256: lockstep has no SHA-512/256");
  const ImportedFile g = read_acvp_projection(replace(t, "SHA2-512/256", "SHA3-256"), "x.json");
  EXPECT_EQ(g.cases[0].skip, "SHA3-256: not an algorithm of lockstep");
  const ImportedFile h = read_acvp_projection(replace(replace(t, "SHA2-512/256", "SHA2-256"), "AFT", "VOT"), "x.json");
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

const std::string kCavpShort =
    "#  CAVS 11.0\r\n#  \"SHA-256 ShortMsg\" information\r\n#  SHA-256 tests are configured for BYTE oriented implementations\r\n"
    "\r\n[L = 32]\r\n\r\n"
    "Len = 0\r\nMsg = 00\r\nMD = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\r\n\r\n"
    "Len = 24\r\nMsg = 616263\r\nMD = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\r\n\r\n"
    "Len = 4\r\nMsg = 60\r\nMD = 0000000000000000000000000000000000000000000000000000000000000000\r\n";

const std::string kCavpMonte =
    "#  CAVS 11.1\r\n#  \"SHA-224 Monte\" information for \"sha_values\"\r\n\r\n[L = 28]\r\n\r\n"
    "Seed = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b\r\n\r\n"
    "COUNT = 0\r\nMD = 6c0d1c05aa94b8975d887f6ecebf51ee57b3df1f6fd13586e312419d\r\n\r\n"
    "COUNT = 1\r\nMD = bd8511db4ea4914f6f14cd3ad0f15a2b8f24ce65bc62394fcf2e3823\r\n\r\n";

TEST(ImportCavp, ReadsShortMsgWithCrlfAndTheLenZeroPlaceholder) {
  const ImportedFile f = read_cavp(kCavpShort, "SHA256ShortMsg.rsp");
  EXPECT_EQ(f.format, Format::kCavp);
  EXPECT_EQ(f.algorithm, "SHA-256");
  EXPECT_THAT(ids(f), ElementsAre("line 7", "line 11", "line 15"));
  EXPECT_TRUE(std::get<HashCase>(f.cases[0].body).msg.empty());
  EXPECT_EQ(f.cases[2].skip, "bit-oriented message; lockstep hashes bytes");
  expect_all_pass(run_all(f), 2);
}

TEST(ImportCavp, ReadsTheMonteCarloTest) {
  const ImportedFile f = read_cavp(kCavpMonte, "SHA224Monte.rsp");
  ASSERT_EQ(f.cases.size(), 1u);
  EXPECT_EQ(f.cases[0].id, "line 6");
  EXPECT_EQ(f.cases[0].algorithm, "sha224");
  EXPECT_EQ(std::get<MonteCase>(f.cases[0].body).checkpoints.size(), 2u);
  expect_all_pass(run_all(f), 1);

  const FileReport bad = run_all(read_cavp(replace(kCavpMonte, "bd8511db", "bd8511dc"), "SHA224Monte.rsp"));
  ASSERT_FALSE(bad.backends.empty());
  EXPECT_THAT(bad.backends[0].failures.at(0),
              HasSubstr("line 6 (sha224): COUNT 1: first difference at offset 3 of 28 bytes (1 byte differs)"));
  EXPECT_THAT(bad.backends[0].failures.at(0), HasSubstr("got bd8511[db]"));
  EXPECT_THAT(bad.backends[0].failures.at(0), HasSubstr("expected bd8511[dc]"));
}

TEST(ImportCavp, TheAlgorithmComesFromTheHeaderOrTheFileName) {
  // [L = 32] alone could be SHA-256 or SHA-512/256.
  const std::string no_header = kCavpShort.substr(kCavpShort.find("\r\n[L"));
  EXPECT_EQ(read_cavp(no_header, "dir/SHA256LongMsg.rsp").algorithm, "SHA-256");
  const ImportedFile f = read_cavp(no_header, "SHA512_256ShortMsg.rsp");
  EXPECT_EQ(f.cases.size(), 3u);
  EXPECT_EQ(f.cases[0].skip, "SHA-512/256: lockstep has no SHA-512/256");
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

const std::string kBotan = R"(
#test cpuid avx2 ssse3

[ChaCha(20)]
# RFC 8439 A.1 #1 and #2: the keystream of blocks 0 and 1
Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Out = 76B8E0ADA0F13D90405D6AE55386BD28BDD219B8A08DED1AA836EFCC8B770DC7DA41597C5157488D7724E03FB8D84A376A43B8F41518A11CC387B669B2EE6586

Seek = 63
Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Out = 869F07E7BE5551387A98BA

Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Seek = 64
In = 00000000000000000000000000000000
Out = 9f07e7be5551387a98ba977c732d080d

Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000000000000000000000000000
Out = bcd02a18bf3f01d19292de30a7a8fdaca4b65e50a6002cc72cd6d2f7c91ac3d5

Key = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
Nonce = 000102030405060708090a0b0c0d0e0f1011121314151617
Seek = 66
Out = 0f7f90d28dae334426cecb52a8e84b47

Key = 00000000000000000000000000000000
Nonce = 0000000000000000
Out = E28A5FA4A67F8C5D

Key = 0000000000000000000000000000000000000000000000000000000000000000
Out = 76B8E0ADA0F13D90

Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Seek = 274877906940
Out = 0000000000000000

[ChaCha(12)]
Key = 8ac4a02d74de7e3c3a2b51eaf2ebf90c7d75ee4445b2e419420cd729e8e146c6
Nonce = dca89c467002c7fd9980abd1
Seek = 35516770624
In = 5d
Out = 0a

[ChaCha(8)]
Key = 00000000000000000000000000000000
Out = E28A5FA4A67F8C5D

[HMAC(SHA-256)]
Key = 4A656665
In = 7768617420646F2079612077616E7420666F72206E6F7468696E673F
Out = 5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843

[HMAC(SHA-512-256)]
Key = 4A656665
In = 7768617420646F2079612077616E7420666F72206E6F7468696E673F
Out = 6DF7B24630D5CCB2EE335407081A87188C221489768FA2020513B2D593359456

[SHA-256]
In =
Out = E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855

In = 616263
Out = BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD

[SHA-384]
In = 616263
Out = CB00753F45A35E8BB5A03D699AC65007272C32AB0EDED1631A8B605A43FF5BED8086072BA1E7CC2358BAECA134C825A7

[Poly1305]
Key = 00
In = 00
Out = 00
)";

TEST(ImportBotan, ReadsChachaHmacAndSha2Sections) {
  const ImportedFile f = read_botan(kBotan, "b.vec");
  EXPECT_EQ(f.format, Format::kBotan);
  EXPECT_EQ(f.algorithm, "ChaCha(20), ChaCha(12), ChaCha(8), HMAC(SHA-256), HMAC(SHA-512-256), SHA-256, SHA-384, Poly1305");
  ASSERT_EQ(f.cases.size(), 16u);
  EXPECT_EQ(f.cases[0].id, "line 6");
  EXPECT_EQ(f.cases[0].algorithm, "chacha20");
  EXPECT_EQ(std::get<StreamCase>(f.cases[1].body).offset, 63u);
  EXPECT_EQ(f.cases[3].algorithm, "xchacha20");
  EXPECT_EQ(f.cases[5].skip,
            "8-byte nonce: the original ChaCha with a 64-bit block counter (lockstep has RFC 8439's "
            "32-bit counter and 96-bit nonce)");
  EXPECT_EQ(f.cases[6].skip, f.cases[5].skip);  // no Nonce: Botan's 8 zero bytes
  EXPECT_EQ(f.cases[7].skip, "keystream beyond block 2^32 - 1 (lockstep's counter is 32 bits)");
  EXPECT_EQ(f.cases[8].algorithm, "chacha12");
  EXPECT_EQ(f.cases[9].skip, "ChaCha(8): lockstep has ChaCha20 and ChaCha12");
  EXPECT_EQ(f.cases[10].algorithm, "hmac-sha256");
  EXPECT_EQ(f.cases[11].skip, "HMAC(SHA-512-256): lockstep has no SHA-512/256");
  EXPECT_EQ(f.cases[12].algorithm, "sha256");
  EXPECT_EQ(f.cases[14].algorithm, "sha384");
  EXPECT_EQ(f.cases[15].skip, "Poly1305: not an algorithm of lockstep");

  const FileReport r = run_all(f);
  EXPECT_EQ(r.cases, 16u);
  EXPECT_EQ(r.skipped_cases(), 6u);
  for (const BackendReport& b : r.backends) {
    EXPECT_EQ(b.failed, 0u) << b.backend->name << ": " << b.failures.at(0);
    const std::string_view family = b.backend->name.substr(0, b.backend->name.find('/'));
    const size_t expected = family == "chacha" ? 6 : family == "sha256" ? 3 : 1;
    EXPECT_EQ(b.run, expected) << b.backend->name;
  }
}

TEST(ImportBotan, AWrongKeystreamFailsWithItsLine) {
  const FileReport r = run_all(read_botan(replace(kBotan, "0f7f90d28dae", "0f7f90d28dae00"), "b.vec"));
  bool seen = false;
  for (const BackendReport& b : r.backends) {
    if (b.backend->name.substr(0, 7) != "chacha/") continue;
    seen = true;
    ASSERT_EQ(b.failures.size(), 1u) << b.backend->name;
    EXPECT_THAT(b.failures[0], HasSubstr("line 25 (xchacha20): first difference at offset 6 of 17 bytes"));
    EXPECT_THAT(b.failures[0], HasSubstr("got 0f7f90d28dae[33]"));
    EXPECT_THAT(b.failures[0], HasSubstr("expected 0f7f90d28dae[00]33"));
  }
  EXPECT_TRUE(seen);
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
}

TEST(ImportBotan, TestsOfOtherFormatsAreCountedByTheirOutput) {
  // libsodium's XChaCha20-Poly1305 files: Botan's format without a header.
  const ImportedFile f = read_botan("Key = 00\nAD = \nNonce = 00\nIn = \nOut = 00\n\nKey = 01\nOut = 01\n", "x.vec");
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[0].skip, "tests before any [algorithm] header");
  EXPECT_EQ(f.cases[1].id, "line 7");
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
  EXPECT_EQ(detect("a/schema.json", R"({"$schema": "x"})").why, "a JSON schema");
  EXPECT_EQ(detect("a/sha256.json", R"({"schema": "lockstep-hash-v1", "testGroups": []})").kind, Kind::kLockstep);
  EXPECT_EQ(detect("a/x.json", R"({"schema": "lockstep-nosuch-v1", "testGroups": []})").kind, Kind::kLockstep);
  EXPECT_EQ(detect("a/rfc8439.txt", "").why, "not a vector file type (.json, .rsp, .vec)");
  EXPECT_FALSE(wants_content("a/x.h"));
}

// lockstep's own schema: a file a user wrote runs like any other format.
// SHA-256("abc") from FIPS 180-4, once as valid and once, a bit flipped, as
// invalid (it must not match).
constexpr const char* kOwnHash = R"({"algorithm": "SHA-256", "schema": "lockstep-hash-v1", "numberOfTests": 2,
  "testGroups": [{"type": "HashTest", "source": "FIPS 180-4 B.1", "tests": [
    {"tcId": 1, "comment": "abc", "flags": [], "result": "valid", "msg": "616263",
     "md": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"tcId": 2, "comment": "abc, md bit flipped", "flags": [], "result": "invalid", "msg": "616263",
     "md": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac"}]}]})";

TEST(ImportLockstep, ReadsAndRunsItsOwnSchemas) {
  const ImportedFile f = read_lockstep(kOwnHash, "mine.json");
  EXPECT_EQ(f.format, Format::kLockstep);
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[1].id, "tcId 2");
  EXPECT_EQ(f.cases[1].algorithm, "sha256");
  EXPECT_EQ(std::get<HashCase>(f.cases[1].body).expect, Expect::kMismatch);
  expect_all_pass(run_all(f), 2);
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
