// Tests of the vector files and their loader: every committed file loads and
// agrees with every oracle source, the loader rejects each kind of malformed
// file with file, tcId and field named, the generated files match the Linux
// kernel's own test vectors, and regenerating them reproduces them exactly.
#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "kernel_rule.h"
#include "oracle.h"
#include "vector_file.h"

namespace lockstep::vectors {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string hex(const Bytes& b) { return fmt::format("{:02x}", fmt::join(b, "")); }

Bytes concat(const Bytes& a, const Bytes& b) {
  Bytes out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// The oracle's name for a file's algorithm: "sha256" for SHA-256 and for
// HMAC-SHA256 alike.
std::string oracle_alg(const VectorFile& f) {
  std::string name = catalog_name(f.algorithm);
  if (name.rfind("hmac-", 0) == 0) name.erase(0, 5);
  return name;
}

// Whether this build can ask any oracle source (a cross build cannot).
bool any_oracle() {
  for (oracle::Source s : oracle::kAllSources)
    if (oracle::available(s)) return true;
  return false;
}

// ---------------------------------------------------------------------------
// The committed files.

std::string param_name(const testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.lexically_relative(data_dir()).generic_string();
  if (name.size() > 5 && name.ends_with(".json")) name.resize(name.size() - 5);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class VectorFileTest : public testing::TestWithParam<fs::path> {};

// Test that the file loads, is not empty and names a catalog algorithm.
TEST_P(VectorFileTest, Loads) {
  const VectorFile f = load(GetParam());
  EXPECT_GT(f.size(), 0u);
  EXPECT_NO_THROW(catalog_name(f.algorithm));
}

// Test that every vector of the file agrees with every oracle source: valid
// ones reproduce the expected value, invalid ones do not. For the typed-in
// files this is what proves the typing.
TEST_P(VectorFileTest, AgreesWithEveryOracleSource) {
  const VectorFile f = load(GetParam());
  const std::string alg = oracle_alg(f);
  const bool cipher = !f.chacha.empty() || !f.hchacha.empty();
  if (!cipher) {
    ASSERT_TRUE(oracle::supports_hash(alg)) << alg;
  }
  if (!any_oracle())
    GTEST_SKIP() << "no oracle source in this build (cross builds have none); "
                    "the native build checks every file";
  int sources = 0;
  for (oracle::Source s : oracle::kAllSources) {
    if (!oracle::available(s)) continue;
    const std::string src(oracle::source_name(s));
    if (cipher) {
      // Not every source implements every variant; those that do must agree.
      const int rounds = alg == "chacha12" ? 12 : 20;
      const bool able = alg == "hchacha20"   ? oracle::supports_hchacha20(s)
                        : alg == "xchacha20" ? oracle::supports_xchacha20(s)
                                             : oracle::supports_chacha(s, rounds);
      if (!able) continue;
      ++sources;
      for (const ChachaTest& t : f.chacha) {
        SCOPED_TRACE(f.path.filename().string() + " tcId " + std::to_string(t.tc_id) + " " + src);
        const Bytes got = alg == "xchacha20"
                              ? oracle::xchacha20(s, t.key, t.nonce, t.counter, t.msg)
                              : oracle::chacha(s, rounds, t.key, t.counter, t.nonce, t.msg);
        EXPECT_EQ(got == t.ct, t.result != Result::kInvalid) << t.comment;
      }
      for (const HChachaTest& t : f.hchacha) {
        SCOPED_TRACE(f.path.filename().string() + " tcId " + std::to_string(t.tc_id) + " " + src);
        EXPECT_EQ(oracle::hchacha20(s, t.key, t.nonce) == t.subkey, t.result != Result::kInvalid)
            << t.comment;
      }
      continue;
    }
    for (const HashTest& t : f.hash) {
      SCOPED_TRACE(f.path.filename().string() + " tcId " + std::to_string(t.tc_id) + " " + src);
      const bool match = oracle::digest(alg, s, t.msg) == t.md;
      EXPECT_EQ(match, t.result != Result::kInvalid) << t.comment;
    }
    for (const HmacTest& t : f.hmac) {
      SCOPED_TRACE(f.path.filename().string() + " tcId " + std::to_string(t.tc_id) + " " + src);
      Bytes tag = oracle::hmac(alg, s, t.key, t.msg);
      ASSERT_GE(tag.size(), t.tag.size());
      tag.resize(t.tag.size());
      EXPECT_EQ(tag == t.tag, t.result != Result::kInvalid) << t.comment;
    }
    for (const Finup2xTest& t : f.finup_2x) {
      SCOPED_TRACE(f.path.filename().string() + " tcId " + std::to_string(t.tc_id) + " " + src);
      EXPECT_EQ(oracle::digest(alg, s, concat(t.prefix, t.data1)) == t.md1,
                t.result != Result::kInvalid);
      EXPECT_EQ(oracle::digest(alg, s, concat(t.prefix, t.data2)) == t.md2,
                t.result != Result::kInvalid);
    }
    for (const ConsolidatedTest& t : f.consolidated) {
      SCOPED_TRACE(f.path.filename().string() + " tcId " + std::to_string(t.tc_id) + " " + src);
      const Bytes v = f.schema == "lockstep-hmac-v1" ? kernel_consolidated_hmac(alg, s, t.max_len)
                                                     : kernel_consolidated_hash(alg, s, t.max_len);
      EXPECT_EQ(hex(v), hex(t.value));
    }
  }
  if (cipher) {
    EXPECT_GE(sources, 2) << "fewer than two oracle sources checked " << alg;
  }
}

// data_files lists the committed files; a missing directory gives no files
// here (ExpectedFilesPresent then fails) rather than an exception before main.
std::vector<fs::path> data_files() {
  try {
    return files(data_dir());
  } catch (const fs::filesystem_error&) {
    return {};
  }
}

INSTANTIATE_TEST_SUITE_P(Data, VectorFileTest, testing::ValuesIn(data_files()), param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(VectorFileTest);

// Test that the files every consumer relies on are there.
TEST(VectorFilesTest, ExpectedFilesPresent) {
  for (const char* alg : {"sha224", "sha256", "sha384", "sha512"}) {
    const std::string a = alg;
    for (const std::string& rel : {a + "/fips180-4.json", "hmac-" + a + "/rfc4231.json",
                                   a + "/kernel.json", "hmac-" + a + "/kernel.json"})
      EXPECT_TRUE(fs::exists(data_dir() / rel)) << rel;
  }
  // SHA-512/t: no RFC 4231 cases, and kernel.json holds the kernel's rule only.
  for (const char* alg : {"sha512-224", "sha512-256"}) {
    const std::string a = alg;
    for (const std::string& rel : {a + "/fips180-4.json", a + "/kernel.json", "hmac-" + a + "/kernel.json"})
      EXPECT_TRUE(fs::exists(data_dir() / rel)) << rel;
  }
  for (const char* rel : {"sha256/finup2x.json", "chacha20/rfc8439.json", "chacha20/random.json",
                          "chacha20/wrap.json", "chacha12/random.json", "chacha12/wrap.json",
                          "xchacha20/xchacha-draft.json", "hchacha20/xchacha-draft.json"})
    EXPECT_TRUE(fs::exists(data_dir() / rel)) << rel;
}

// ---------------------------------------------------------------------------
// Strict validation: each kind of malformed file, named precisely.

// A valid hash file, mutated by each case.
json hash_file() {
  return json::parse(R"({
    "algorithm": "SHA-256", "schema": "lockstep-hash-v1", "numberOfTests": 2,
    "header": ["test"], "notes": {"Flag": "a flag"},
    "testGroups": [{"type": "HashTest", "source": "FIPS 180-4", "tests": [
      {"tcId": 1, "comment": "abc", "flags": ["Flag"], "result": "valid", "msg": "616263",
       "md": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"tcId": 7, "comment": "empty", "flags": [], "result": "valid", "msg": "",
       "md": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]}]})");
}

json& test_at(json& doc, size_t i) { return doc["testGroups"][0]["tests"][i]; }

// error_of loads `text` as "bad/case.json" and returns the error message.
std::string error_of_text(const std::string& text) {
  try {
    (void)load_from_string(text, "bad/case.json");
  } catch (const VectorError& e) {
    return e.what();
  }
  return "(loaded without error)";
}
std::string error_of(const json& doc) { return error_of_text(doc.dump()); }

TEST(VectorLoaderTest, BaseFileLoads) {
  const VectorFile f = load_from_string(hash_file().dump(), "bad/case.json");
  ASSERT_EQ(f.hash.size(), 2u);
  EXPECT_EQ(f.hash[0].tc_id, 1);
  EXPECT_EQ(f.hash[0].msg, (Bytes{'a', 'b', 'c'}));
  EXPECT_EQ(f.hash[0].flags, std::vector<std::string>{"Flag"});
  EXPECT_EQ(f.hash[1].tc_id, 7);
  EXPECT_EQ(f.algorithm, "SHA-256");
  EXPECT_EQ(f.schema, "lockstep-hash-v1");
}

// A valid ChaCha20 file (RFC 8439, 2.4.2's first 16 bytes), mutated below.
json chacha_file() {
  return json::parse(R"({
    "algorithm": "ChaCha20", "schema": "lockstep-chacha-v1", "numberOfTests": 1,
    "testGroups": [{"type": "CipherTest", "source": "RFC 8439", "tests": [
      {"tcId": 3, "comment": "c", "flags": [], "result": "valid",
       "key": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
       "nonce": "000000000000004a00000000", "counter": 1,
       "msg": "4c616469657320616e642047656e746c", "ct": "6e2e359a2568f98041ba0728dd0d6981"}]}]})");
}

TEST(VectorLoaderTest, ChachaFields) {
  const VectorFile f = load_from_string(chacha_file().dump(), "bad/case.json");
  ASSERT_EQ(f.chacha.size(), 1u);
  EXPECT_EQ(f.chacha[0].counter, 1u);
  EXPECT_EQ(f.chacha[0].nonce.size(), 12u);

  json d = chacha_file();
  test_at(d, 0)["nonce"] = "00";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 3: field 'nonce': has 1 bytes, expected 12");
  d = chacha_file();
  d["algorithm"] = "XChaCha20";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 3: field 'nonce': has 12 bytes, expected 24");
  d = chacha_file();
  test_at(d, 0)["counter"] = 4294967296;
  EXPECT_EQ(error_of(d),
            "bad/case.json: tcId 3: field 'counter': must be at most 2^32 - 1 (a 32-bit block counter)");
  d = chacha_file();
  test_at(d, 0)["ct"] = "6e2e";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 3: field 'ct': has 2 bytes, msg has 16");
  d = chacha_file();
  d["testGroups"][0]["type"] = "HashTest";
  EXPECT_EQ(error_of(d),
            "bad/case.json: testGroups[0]: field 'type': unknown group type 'HashTest' in "
            "lockstep-chacha-v1 (CipherTest)");
  d = chacha_file();
  d["schema"] = "lockstep-hash-v1";
  EXPECT_EQ(error_of(d),
            "bad/case.json: field 'algorithm': 'ChaCha20' is not an algorithm of lockstep-hash-v1");
}

TEST(VectorLoaderTest, NotJson) {
  EXPECT_THAT(error_of_text("{\"algorithm\": "), testing::StartsWith("bad/case.json: not valid JSON"));
}

TEST(VectorLoaderTest, UnknownTopLevelField) {
  json d = hash_file();
  d["numberOfTest"] = 2;
  EXPECT_EQ(error_of(d), "bad/case.json: field 'numberOfTest': unknown field");
}

TEST(VectorLoaderTest, UnknownTestField) {
  json d = hash_file();
  test_at(d, 1)["digest"] = "00";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 7: field 'digest': unknown field");
}

TEST(VectorLoaderTest, UnknownGroupField) {
  json d = hash_file();
  d["testGroups"][0]["keySize"] = 0;
  EXPECT_EQ(error_of(d), "bad/case.json: testGroups[0]: field 'keySize': unknown field");
}

TEST(VectorLoaderTest, MissingField) {
  json d = hash_file();
  test_at(d, 1).erase("md");
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 7: field 'md': missing");
  d = hash_file();
  test_at(d, 0).erase("tcId");
  EXPECT_EQ(error_of(d), "bad/case.json: testGroups[0].tests[0]: field 'tcId': missing");
  d = hash_file();
  d.erase("schema");
  EXPECT_EQ(error_of(d), "bad/case.json: field 'schema': missing");
}

TEST(VectorLoaderTest, WrongType) {
  json d = hash_file();
  test_at(d, 0)["msg"] = 616263;
  EXPECT_EQ(error_of(d),
            "bad/case.json: tcId 1: field 'msg': must be a hex string or a descriptor object, not number");
  d = hash_file();
  test_at(d, 0)["flags"] = "Flag";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'flags': must be an array, not string");
  d = hash_file();
  test_at(d, 0)["tcId"] = 1.5;
  EXPECT_EQ(error_of(d),
            "bad/case.json: testGroups[0].tests[0]: field 'tcId': must be a non-negative integer, not number");
  d = hash_file();
  d["numberOfTests"] = -2;
  EXPECT_EQ(error_of(d), "bad/case.json: field 'numberOfTests': must not be negative");
}

TEST(VectorLoaderTest, BadHex) {
  json d = hash_file();
  test_at(d, 1)["md"] = "e3b";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 7: field 'md': odd number of hex digits");
  d = hash_file();
  test_at(d, 0)["msg"] = "6162zz";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'msg': not a hex digit at offset 4");
}

TEST(VectorLoaderTest, WrongDigestLength) {
  json d = hash_file();
  test_at(d, 0)["md"] = "ba7816bf";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'md': has 4 bytes, expected 32");
}

TEST(VectorLoaderTest, DuplicateTcId) {
  json d = hash_file();
  test_at(d, 1)["tcId"] = 1;
  EXPECT_EQ(error_of(d),
            "bad/case.json: tcId 1: field 'tcId': duplicate (also at testGroups[0].tests[0])");
}

TEST(VectorLoaderTest, NumberOfTestsMismatch) {
  json d = hash_file();
  d["numberOfTests"] = 3;
  EXPECT_EQ(error_of(d), "bad/case.json: field 'numberOfTests': is 3 but the file has 2 tests");
}

TEST(VectorLoaderTest, UnknownSchema) {
  json d = hash_file();
  d["schema"] = "lockstep-hash-v2";
  EXPECT_EQ(error_of(d), "bad/case.json: field 'schema': unknown schema 'lockstep-hash-v2'");
}

TEST(VectorLoaderTest, UnknownOrMismatchedAlgorithm) {
  json d = hash_file();
  d["algorithm"] = "SHA-1";
  EXPECT_EQ(error_of(d), "bad/case.json: field 'algorithm': unknown algorithm 'SHA-1'");
  d["algorithm"] = "HMAC-SHA256";
  EXPECT_EQ(error_of(d),
            "bad/case.json: field 'algorithm': 'HMAC-SHA256' is not an algorithm of lockstep-hash-v1");
}

TEST(VectorLoaderTest, UnknownResult) {
  json d = hash_file();
  test_at(d, 1)["result"] = "Valid";
  EXPECT_EQ(error_of(d),
            "bad/case.json: tcId 7: field 'result': unknown result 'Valid' (valid, invalid or acceptable)");
}

TEST(VectorLoaderTest, UnknownGroupType) {
  json d = hash_file();
  d["testGroups"][0]["type"] = "MacTest";
  EXPECT_EQ(error_of(d),
            "bad/case.json: testGroups[0]: field 'type': unknown group type 'MacTest' in "
            "lockstep-hash-v1 (HashTest or KernelConsolidated)");
}

TEST(VectorLoaderTest, UndescribedFlag) {
  json d = hash_file();
  test_at(d, 1)["flags"] = json::array({"Other"});
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 7: field 'flags': flag 'Other' is not described in 'notes'");
}

TEST(VectorLoaderTest, DuplicateJsonKey) {
  std::string text = hash_file().dump();
  const std::string md = "\"md\":\"e3b0";
  text.insert(text.find(md), "\"md\":\"00\",");
  EXPECT_EQ(error_of_text(text), "bad/case.json: field 'md': duplicate key in one object");
}

TEST(VectorLoaderTest, NestingTooDeep) {
  EXPECT_EQ(error_of_text("{\"header\": [[[[[[[[[[1]]]]]]]]]]}"),
            "bad/case.json: field '(document)': nested deeper than 8");
}

// Test that descriptors expand as documented.
TEST(VectorLoaderTest, Descriptors) {
  json d = hash_file();
  test_at(d, 0)["msg"] = json{{"pattern", "6162"}, {"repeat", 3}};
  test_at(d, 1)["msg"] = json{{"kernelData", 100}};
  d["testGroups"][0]["tests"][0]["result"] = "invalid";  // the md is for "abc"
  const VectorFile f = load_from_string(d.dump(), "bad/case.json");
  EXPECT_EQ(f.hash[0].msg, (Bytes{'a', 'b', 'a', 'b', 'a', 'b'}));
  EXPECT_EQ(f.hash[0].result, Result::kInvalid);
  EXPECT_EQ(f.hash[1].msg, kernel_data(100));
}

TEST(VectorLoaderTest, BadDescriptor) {
  json d = hash_file();
  test_at(d, 0)["msg"] = json{{"pattern", "61"}, {"repeat", 3}, {"seed", 1}};
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'msg.seed': unknown field");
  test_at(d, 0)["msg"] = json{{"pattern", "61"}};
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'msg.repeat': missing");
  test_at(d, 0)["msg"] = json{{"pattern", ""}, {"repeat", 3}};
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'msg.pattern': must not be empty");
  test_at(d, 0)["msg"] = json{{"length", 3}};
  EXPECT_THAT(error_of(d), testing::StartsWith("bad/case.json: tcId 1: field 'msg': a descriptor is"));
  test_at(d, 0)["md"] = json{{"kernelData", 32}};
  test_at(d, 0)["msg"] = "";
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 1: field 'md': must be a hex string, not object");
}

// Test that descriptors cannot ask for huge allocations: the cap is per
// file, checked before allocating, and a harness can lower it.
TEST(VectorLoaderTest, DescriptorSizeCapped) {
  json d = hash_file();
  test_at(d, 0)["msg"] = json{{"pattern", "6162"}, {"repeat", uint64_t{1} << 62}};
  EXPECT_EQ(error_of(d),
            "bad/case.json: tcId 1: field 'msg.repeat': expands to more than the limit of 1073741824 "
            "bytes left for this file");
  test_at(d, 0)["msg"] = json{{"kernelData", uint64_t{1} << 40}};
  EXPECT_THAT(error_of(d), testing::StartsWith("bad/case.json: tcId 1: field 'msg.kernelData': expands to"));
  // Two descriptors within the cap each, over it together.
  d = hash_file();
  test_at(d, 0)["msg"] = json{{"kernelData", 600}};
  test_at(d, 1)["msg"] = json{{"pattern", "00"}, {"repeat", 600}};
  try {
    (void)load_from_string(d.dump(), "bad/case.json", 1000);
    ADD_FAILURE() << "loaded over the cap";
  } catch (const VectorError& e) {
    EXPECT_EQ(std::string(e.what()),
              "bad/case.json: tcId 7: field 'msg.repeat': expands to more than the limit of 400 "
              "bytes left for this file");
  }
}

TEST(VectorLoaderTest, Finup2xLengthsMustMatch) {
  json d = json::parse(R"({"algorithm": "SHA-256", "schema": "lockstep-finup2x-v1",
    "numberOfTests": 1, "testGroups": [{"type": "Finup2xTest", "source": "x", "tests": [
      {"tcId": 3, "comment": "", "flags": [], "result": "valid", "prefix": "", "data1": "00",
       "data2": "0001", "md1": "", "md2": ""}]}]})");
  EXPECT_EQ(error_of(d),
            "bad/case.json: tcId 3: field 'data2': has 2 bytes, data1 has 1 (finup_2x needs equal lengths)");
  d["algorithm"] = "SHA-224";
  EXPECT_EQ(error_of(d),
            "bad/case.json: field 'algorithm': 'SHA-224' is not an algorithm of lockstep-finup2x-v1");
}

TEST(VectorLoaderTest, HmacTagLength) {
  json d = json::parse(R"({"algorithm": "HMAC-SHA224", "schema": "lockstep-hmac-v1",
    "numberOfTests": 1, "testGroups": [{"type": "MacTest", "source": "x", "tests": [
      {"tcId": 9, "comment": "", "flags": [], "result": "valid", "key": "", "msg": "", "tag": ""}]}]})");
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 9: field 'tag': has 0 bytes, expected 1..28");
  test_at(d, 0)["tag"] = std::string(58, 'a');
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 9: field 'tag': has 29 bytes, expected 1..28");
  test_at(d, 0)["tag"] = "ab";
  EXPECT_EQ(load_from_string(d.dump(), "x.json").hmac.at(0).tag, Bytes{0xab});
}

TEST(VectorLoaderTest, ConsolidatedMaxLen) {
  json d = hash_file();
  d["testGroups"].push_back(json::parse(R"({"type": "KernelConsolidated", "source": "x", "tests": [
      {"tcId": 2, "comment": "", "flags": [], "result": "valid", "maxLen": 1000000,
       "md": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]})"));
  d["numberOfTests"] = 3;
  EXPECT_EQ(error_of(d), "bad/case.json: tcId 2: field 'maxLen': must be at most 16384");
  d["testGroups"][1]["tests"][0]["maxLen"] = 64;
  const VectorFile f = load_from_string(d.dump(), "x.json");
  ASSERT_EQ(f.consolidated.size(), 1u);
  EXPECT_EQ(f.consolidated[0].max_len, 64u);
}

// Test that a file under data_dir() is named relative to it, and that a
// file that cannot be read is a VectorError too.
TEST(VectorLoaderTest, NamesFilesRelativeToDataDir) {
  EXPECT_THROW(load(data_dir() / "sha256" / "missing.json"), VectorError);
  try {
    (void)load(data_dir() / "sha256" / "missing.json");
  } catch (const VectorError& e) {
    EXPECT_THAT(std::string(e.what()), testing::StartsWith("sha256/missing.json: cannot open"));
  }
}

TEST(VectorLoaderTest, CatalogNames) {
  EXPECT_EQ(catalog_name("SHA-256"), "sha256");
  EXPECT_EQ(catalog_name("SHA-224"), "sha224");
  EXPECT_EQ(catalog_name("HMAC-SHA256"), "hmac-sha256");
  EXPECT_EQ(catalog_name("HMAC-SHA224"), "hmac-sha224");
  EXPECT_THROW(catalog_name("sha256"), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// The kernel's own vectors (lib/crypto/tests/<alg>-testvecs.h).

struct KernelHeader {
  std::map<size_t, Bytes> digests;  // by data_len
  Bytes hash_consolidated, hmac_consolidated;
};

// The headers are scanned by hand, not with std::regex: GCC 12 warns
// (maybe-uninitialized) inside <regex> under the sanitizers.

// c_bytes reads the 0xNN bytes of a C initialiser body.
Bytes c_bytes(std::string_view body) {
  Bytes out;
  for (size_t i = body.find("0x"); i != std::string_view::npos; i = body.find("0x", i + 2))
    out.push_back(static_cast<uint8_t>(std::stoi(std::string(body.substr(i + 2, 2)), nullptr, 16)));
  return out;
}

// braces returns the text between the first '{' after `from` and its '}'.
std::string_view braces(std::string_view text, size_t from) {
  const size_t open = text.find('{', from);
  const size_t close = text.find('}', open);
  if (open == std::string_view::npos || close == std::string_view::npos) return {};
  return text.substr(open + 1, close - open - 1);
}

KernelHeader parse_kernel_header(const fs::path& p) {
  const std::string text = read_text(p);
  KernelHeader h;
  constexpr std::string_view kLen = ".data_len = ";
  for (size_t i = text.find(kLen); i != std::string::npos; i = text.find(kLen, i + 1)) {
    const size_t len = std::stoul(text.substr(i + kLen.size()));
    h.digests[len] = c_bytes(braces(text, text.find(".digest", i)));
  }
  if (size_t i = text.find("hash_testvec_consolidated["); i != std::string::npos)
    h.hash_consolidated = c_bytes(braces(text, i));
  if (size_t i = text.find("hmac_testvec_consolidated["); i != std::string::npos)
    h.hmac_consolidated = c_bytes(braces(text, i));
  return h;
}

class KernelVectorsTest : public testing::TestWithParam<const char*> {};

// Test that lockstep's generated kernel-rule files hold exactly the kernel's
// digests, at the kernel's lengths, and both of its consolidated values.
TEST_P(KernelVectorsTest, MatchKernelTestvecs) {
  const std::string alg = GetParam();
  const fs::path upstream = LOCKSTEP_UPSTREAM_VECTORS_DIR;
  const fs::path header = upstream / "linux-kernel" / (alg + "-testvecs.h");
  if (!fs::exists(header))
    GTEST_SKIP() << "no upstream mirror at " << upstream
                 << " (configure with -DLOCKSTEP_UPSTREAM_VECTORS=<dir>; see vectors/README.md)";
  const KernelHeader k = parse_kernel_header(header);
  ASSERT_EQ(k.digests.size(), std::size(kKernelLengths)) << "could not parse " << header;
  ASSERT_FALSE(k.hash_consolidated.empty());
  ASSERT_FALSE(k.hmac_consolidated.empty());

  const VectorFile hash = load(data_dir() / alg / "kernel.json");
  std::map<size_t, Bytes> ours;
  for (const HashTest& t : hash.hash) {
    EXPECT_EQ(t.msg, kernel_data(t.msg.size())) << "tcId " << t.tc_id << " is not kernel data";
    ours[t.msg.size()] = t.md;
  }
  ASSERT_EQ(ours.size(), k.digests.size());
  for (const auto& [len, md] : k.digests) {
    SCOPED_TRACE("data_len=" + std::to_string(len));
    ASSERT_TRUE(ours.count(len));
    EXPECT_EQ(hex(ours[len]), hex(md));
  }
  ASSERT_EQ(hash.consolidated.size(), 1u);
  EXPECT_EQ(hash.consolidated[0].max_len, 4096u);
  EXPECT_EQ(hex(hash.consolidated[0].value), hex(k.hash_consolidated));

  const VectorFile mac = load(data_dir() / ("hmac-" + alg) / "kernel.json");
  ASSERT_EQ(mac.consolidated.size(), 1u);
  EXPECT_EQ(mac.consolidated[0].max_len, 4096u);
  EXPECT_EQ(hex(mac.consolidated[0].value), hex(k.hmac_consolidated));
}

INSTANTIATE_TEST_SUITE_P(Kernel, KernelVectorsTest, testing::Values("sha224", "sha256", "sha384", "sha512"),
                         [](const auto& p) { return std::string(p.param); });

// ---------------------------------------------------------------------------
// Regeneration.

constexpr std::string_view kGeneratedPrefix = "Generated by vectors_gen";

bool is_generated(const fs::path& p) {
  const auto doc = nlohmann::json::parse(read_text(p));
  return doc.contains("header") && !doc["header"].empty() &&
         doc["header"][0].get<std::string>().starts_with(kGeneratedPrefix);
}

// Test that vectors_gen, run again, writes byte for byte the committed
// generated files, and no other file.
TEST(GeneratorTest, RegenerateMatchesCommitted) {
  // vectors_gen needs every source to agree; a cross build also could not
  // start it from here (std::system runs the host's shell, not the emulator).
  for (oracle::Source s : oracle::kAllSources)
    if (!oracle::available(s))
      GTEST_SKIP() << "oracle source " << oracle::source_name(s) << " not in this build";
  std::string tmpl = (fs::temp_directory_path() / "lockstep-vectors-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path out = tmpl;
  const std::string cmd = std::string("'") + LOCKSTEP_VECTORS_GEN + "' --out '" + out.string() +
                          "' > '" + (out / "log.txt").string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << cmd << "\n" << read_text(out / "log.txt");
  fs::remove(out / "log.txt");

  std::set<std::string> generated;
  for (const fs::path& p : files(out)) {
    const std::string rel = p.lexically_relative(out).generic_string();
    generated.insert(rel);
    SCOPED_TRACE(rel);
    ASSERT_TRUE(fs::exists(data_dir() / rel)) << "generated but not committed";
    EXPECT_TRUE(read_text(p) == read_text(data_dir() / rel))
        << "differs from the committed file; run vectors_gen and review the diff";
  }
  for (const fs::path& p : files(data_dir())) {
    const std::string rel = p.lexically_relative(data_dir()).generic_string();
    if (is_generated(p)) {
      EXPECT_TRUE(generated.count(rel)) << rel << " says generated, but vectors_gen did not write it";
    }
  }
  fs::remove_all(out);
}

}  // namespace
}  // namespace lockstep::vectors
