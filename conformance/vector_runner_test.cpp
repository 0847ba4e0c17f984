// The vector runner (vector_runner.h) on the importers' small inline files
// (vectors/import/import_samples.h): every available backend passes what the
// readers read, skipped cases are counted with their reasons, and a wrong
// expected value fails with the test's id and where the bytes differ.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "vector_runner.h"
#include "vectors/import/import.h"
#include "vectors/import/import_samples.h"

namespace lockstep::vectors::import {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace samples;

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

TEST(VectorRunner, SizeTextUsesTheLargestUnitThatDivides) {
  EXPECT_EQ(size_text(0), "0 bytes");
  EXPECT_EQ(size_text(1536), "1536 bytes");
  EXPECT_EQ(size_text(uint64_t{1} << 20), "1 MiB");
  EXPECT_EQ(size_text(kDefaultLdtMax), "1 GiB");
  EXPECT_EQ(size_text(uint64_t{8} << 30), "8 GiB");
  EXPECT_EQ(size_text(uint64_t{2048} << 40), "2048 TiB");
}

// --- Wycheproof --------------------------------------------------------------

TEST(VectorRunnerWycheproof, MacTestsWithTruncatedTagsPass) {
  expect_all_pass(run_all(read_wycheproof(good_wycheproof(), "w.json")), 5);
}

TEST(VectorRunnerWycheproof, AWrongValidTagFailsWithItsId) {
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

// SHA-512/224 runs on every SHA-512 backend; its 28-byte tag ends inside
// a 64-bit word of the state.
TEST(VectorRunnerWycheproof, HmacSha512_224PassesOnTheSha512Backends) {
  const FileReport r = run_all(read_wycheproof(kWycheproofSha512_224, "s.json"));
  expect_all_pass(r, 2);
  for (const BackendReport& b : r.backends) EXPECT_EQ(b.backend->name.substr(0, 7), "sha512/");
  const std::string wrong = replace(kWycheproofSha512_224, "37254bde\", \"result\": \"valid", "37254bdf\", \"result\": \"valid");
  for (const BackendReport& b : run_all(read_wycheproof(wrong, "s.json")).backends) {
    ASSERT_EQ(b.failures.size(), 1u) << b.backend->name;
    EXPECT_THAT(b.failures[0], HasSubstr("tcId 1 (hmac-sha512-224): first difference at offset 27 of 28 bytes"));
  }
}

TEST(VectorRunnerWycheproof, UnsupportedFilesAreCountedAsSkipped) {
  const FileReport r = run_all(read_wycheproof(kWycheproofSha3, "s.json"));
  EXPECT_EQ(r.cases, 2u);
  EXPECT_TRUE(r.backends.empty());
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].reason, "HMACSHA3-224: not an algorithm of lockstep");
  EXPECT_THAT(r.skipped[0].ids, ElementsAre("tcId 1", "tcId 2"));
}

// The keystreams inside AEAD files run on every ChaCha backend; a wrong
// ciphertext byte fails with its test id.
TEST(VectorRunnerWycheproof, AeadKeystreamsPass) {
  const FileReport r = run_all(read_wycheproof(kWycheproofAead, "a.json"));
  expect_all_pass(r, 1);
  for (const BackendReport& b : r.backends) EXPECT_EQ(b.backend->name.substr(0, 7), "chacha/");
  EXPECT_EQ(r.skipped_cases(), 2u);
  expect_all_pass(run_all(read_wycheproof(kWycheproofXAead, "x.json")), 1);
  const FileReport bad = run_all(read_wycheproof(replace(kWycheproofAead, "d31a8d34648e", "d31a8d34648f"), "a.json"));
  ASSERT_FALSE(bad.backends.empty());
  for (const BackendReport& b : bad.backends) {
    ASSERT_EQ(b.failures.size(), 1u) << b.backend->name;
    EXPECT_THAT(b.failures[0], HasSubstr("tcId 1 (chacha20): first difference at offset 5 of 114 bytes"));
  }
}

TEST(VectorRunnerWycheproof, StreamCipherGroupsRunWhatMapsAndCountTheRest) {
  const FileReport r = run_all(read_wycheproof(kWycheproofStream, "c.json"));
  expect_all_pass(r, 4);
  EXPECT_EQ(r.skipped.size(), 5u);
  EXPECT_EQ(r.skipped_cases(), 5u);
  const FileReport bad = run_all(read_wycheproof(replace(kWycheproofStream, "\"ct\": \"b9\"", "\"ct\": \"b8\""), "c.json"));
  ASSERT_FALSE(bad.backends.empty());
  for (const BackendReport& b : bad.backends) {
    ASSERT_EQ(b.failures.size(), 1u) << b.backend->name;
    EXPECT_THAT(b.failures[0], HasSubstr("tcId 5 (xchacha20): first difference at offset 0 of 1 byte"));
  }
}

// --- ACVP --------------------------------------------------------------------

TEST(VectorRunnerAcvp, AftMctAndLdtPass) {
  // tcId 7 streams 3 MB, in chunks that end mid-copy.
  expect_all_pass(run_all(read_acvp(kAcvpPrompt, "p.json", kAcvpExpected, "e.json")), 6);
}

TEST(VectorRunnerAcvp, LargeDataTestsOverTheLimitAreSkipped) {
  const FileReport r = run_all(read_acvp(kAcvpPrompt, "p.json", kAcvpExpected, "e.json"), 1 << 20);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_EQ(r.skipped[1].reason, "ACVP large-data test over --ldt-max 1 MiB (raise it, or LOCKSTEP_ACVP_LDT_MAX)");
  EXPECT_THAT(r.skipped[1].ids, ElementsAre("tgId 4 tcId 7"));
  expect_all_pass(r, 5);
  for (const BackendReport& b : r.backends) EXPECT_EQ(b.skipped, 2u);
}

TEST(VectorRunnerAcvp, TheDefaultBackendRunsLargeDataTestsUpToItsOwnLimit) {
  RunOptions o;
  o.ldt_max = 1 << 20;
  o.ldt_max_default = 4 << 20;
  const FileReport r = run_file(read_acvp(kAcvpPrompt, "p.json", kAcvpExpected, "e.json"), o);
  ASSERT_EQ(r.skipped.size(), 1u);  // the 3 MB LDT runs somewhere now
  const Backend* fastest = catalog::find_family("sha256")->default_backend();
  bool saw_default = false;
  for (const BackendReport& b : r.backends) {
    EXPECT_EQ(b.failed, 0u) << b.backend->name;
    const bool is_default = b.backend == fastest;
    saw_default = saw_default || is_default;
    EXPECT_EQ(b.run, is_default ? 6u : 5u) << b.backend->name;
    EXPECT_EQ(b.skipped, is_default ? 1u : 2u) << b.backend->name;
  }
  EXPECT_TRUE(saw_default);
}

TEST(VectorRunnerAcvp, AWrongCheckpointNamesTheTestAndTheCheckpoint) {
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

TEST(VectorRunnerAcvp, HmacWithLengthsPerGroupAndPerTestPasses) {
  expect_all_pass(run_all(read_acvp_projection(kAcvpHmacV1, "h1.json")), 1);
  expect_all_pass(run_all(read_acvp_projection(kAcvpHmacV2, "h2.json")), 1);
}

TEST(VectorRunnerAcvp, Sha512_224PassesAndAWrongLastByteFails) {
  expect_all_pass(run_all(read_acvp_projection(kAcvpSha512_224, "t.json")), 2);
  const FileReport r = run_all(read_acvp_projection(replace(kAcvpSha512_224, "3E8924AA", "3E8924AB"), "t.json"));
  for (const BackendReport& b : r.backends) {
    ASSERT_EQ(b.failures.size(), 1u) << b.backend->name;
    EXPECT_THAT(b.failures[0], HasSubstr("tgId 1 tcId 1 (sha512-224): first difference at offset 27 of 28 bytes"));
  }
}

// --- CAVP --------------------------------------------------------------------

TEST(VectorRunnerCavp, ShortMsgPasses) {
  expect_all_pass(run_all(read_cavp(kCavpShort, "SHA256ShortMsg.rsp")), 2);
}

TEST(VectorRunnerCavp, TheMonteCarloTestPassesAndAWrongCheckpointFails) {
  expect_all_pass(run_all(read_cavp(kCavpMonte, "SHA224Monte.rsp")), 1);

  const FileReport bad = run_all(read_cavp(replace(kCavpMonte, "bd8511db", "bd8511dc"), "SHA224Monte.rsp"));
  ASSERT_FALSE(bad.backends.empty());
  EXPECT_THAT(bad.backends[0].failures.at(0),
              HasSubstr("line 6 (sha224): COUNT 1: first difference at offset 3 of 28 bytes (1 byte differs)"));
  EXPECT_THAT(bad.backends[0].failures.at(0), HasSubstr("got bd8511[db]"));
  EXPECT_THAT(bad.backends[0].failures.at(0), HasSubstr("expected bd8511[dc]"));
}

// --- Botan -------------------------------------------------------------------

TEST(VectorRunnerBotan, EachSectionRunsOnTheBackendsOfItsFamily) {
  const FileReport r = run_all(read_botan(kBotan, "b.vec"));
  EXPECT_EQ(r.cases, 20u);
  EXPECT_EQ(r.skipped_cases(), 5u);
  ASSERT_FALSE(r.backends.empty());
  for (const BackendReport& b : r.backends) {
    EXPECT_EQ(b.failed, 0u) << b.backend->name << ": " << b.failures.at(0);
    const std::string_view family = b.backend->name.substr(0, b.backend->name.find('/'));
    const size_t expected = family == "chacha" ? 10 : family == "sha256" ? 3 : 2;
    EXPECT_EQ(b.run, expected) << b.backend->name;
  }
}

TEST(VectorRunnerBotan, AWrongKeystreamFailsWithItsLine) {
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

// --- KizzyCode -----------------------------------------------------------------

TEST(VectorRunnerKizzycode, KeystreamsAndAeadsPass) {
  const FileReport r = run_all(read_kizzycode(kKizzycode, "k.json"));
  expect_all_pass(r, 3);
  EXPECT_EQ(r.skipped_cases(), 3u);
}

// --- lockstep's own schemas --------------------------------------------------

// The invalid test (a bit flipped) passes by not matching.
TEST(VectorRunnerLockstep, ItsOwnSchemasRunLikeAnyOtherFormat) {
  expect_all_pass(run_all(read_lockstep(kOwnHash, "mine.json")), 2);
}

}  // namespace
}  // namespace lockstep::vectors::import
