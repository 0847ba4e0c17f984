// Wycheproof JSON (testvectors_v1): MacTest groups of HMAC-SHA-2. Every
// other file is read far enough to name and count its tests, each of which
// becomes a skipped case with the reason.
#include <map>

#include "reader_util.h"

namespace lockstep::vectors::import {
namespace {

using namespace detail;

struct Mac {
  std::string_view wycheproof;
  std::string_view hash;  // catalog hash, "" when lockstep lacks it
  std::string_view why;   // when it does
};

constexpr Mac kMacs[] = {
    {"HMACSHA224", "sha224", ""},
    {"HMACSHA256", "sha256", ""},
    {"HMACSHA384", "sha384", ""},
    {"HMACSHA512", "sha512", ""},
    {"HMACSHA512/224", "sha512-224", ""},
    {"HMACSHA512/256", "sha512-256", ""},
    {"CHACHA20-POLY1305", "", "lockstep has no Poly1305"},
    {"XCHACHA20-POLY1305", "", "lockstep has no Poly1305"},
};

class Reader {
 public:
  explicit Reader(const std::string& name) : w_(name) { out_.name = name; }
  ImportedFile read(std::string_view text);

 private:
  // begin_test reads and checks tcId and makes it the place of later errors.
  uint64_t begin_test(const json& t, size_t group, size_t index);
  void mac_group(const json& group, size_t g, const Mac& mac);
  void skipped_group(const json& group, size_t g, const std::string& why);

  Where w_;
  ImportedFile out_;
  std::map<uint64_t, std::string> ids_;  // tcId -> where it was first seen
};

uint64_t Reader::begin_test(const json& t, size_t group, size_t index) {
  const std::string where =
      "testGroups[" + std::to_string(group) + "].tests[" + std::to_string(index) + "]";
  w_.at(where);
  if (!t.is_object()) w_.fail_here("a test must be an object");
  const uint64_t id = uint_field(t, "tcId", w_);
  w_.at("tcId " + std::to_string(id));
  const auto [it, fresh] = ids_.emplace(id, where);
  if (!fresh) w_.fail("tcId", "duplicate (also at " + it->second + ")");
  return id;
}

void Reader::mac_group(const json& group, size_t g, const Mac& mac) {
  only_fields(group, {"type", "source", "keySize", "tagSize", "tests"}, w_);
  if (group.contains("keySize")) (void)uint_field(group, "keySize", w_);
  const uint64_t tag_bits = uint_field(group, "tagSize", w_);
  const size_t full = digest_size(mac.hash);
  if (tag_bits == 0 || tag_bits > 8 * full)
    w_.fail("tagSize", std::to_string(tag_bits) + " bits, expected 1.." + std::to_string(8 * full));
  const json& tests = array_field(group, "tests", w_);
  for (size_t i = 0; i < tests.size(); ++i) {
    w_.at("testGroups[" + std::to_string(g) + "]");
    const json& t = tests[i];
    const uint64_t id = begin_test(t, g, i);
    only_fields(t, {"tcId", "comment", "flags", "key", "msg", "tag", "result"}, w_);
    (void)string_field(t, "comment", w_);
    for (const json& f : array_field(t, "flags", w_))
      if (!f.is_string()) w_.fail("flags", std::string("must hold strings, not ") + f.type_name());

    Case c;
    c.id = "tcId " + std::to_string(id);
    c.algorithm = "hmac-" + std::string(mac.hash);
    MacCase m;
    m.key = hex_field(t, "key", w_);
    m.msg = hex_field(t, "msg", w_);
    m.tag = hex_field(t, "tag", w_);
    const std::string result = string_field(t, "result", w_);
    if (result == "valid") m.expect = Expect::kMatch;
    else if (result == "invalid") m.expect = Expect::kMismatch;
    else if (result == "acceptable") m.expect = Expect::kEither;
    else w_.fail("result", "unknown result '" + result + "' (valid, invalid or acceptable)");
    // A tag of another length can only be a test that must not verify.
    if (m.expect != Expect::kMismatch && m.tag.size() * 8 != tag_bits)
      w_.fail("tag", "has " + std::to_string(m.tag.size()) + " bytes, tagSize is " +
                         std::to_string(tag_bits) + " bits");
    if (tag_bits % 8) {
      c.skip = "tag of " + std::to_string(tag_bits) + " bits (not whole bytes)";
    } else {
      m.mac_len = tag_bits / 8;
      c.body = std::move(m);
    }
    out_.cases.push_back(std::move(c));
  }
}

void Reader::skipped_group(const json& group, size_t g, const std::string& why) {
  const json& tests = array_field(group, "tests", w_);
  for (size_t i = 0; i < tests.size(); ++i) {
    const uint64_t id = begin_test(tests[i], g, i);
    Case c;
    c.id = "tcId " + std::to_string(id);
    c.algorithm = out_.algorithm;
    c.skip = why;
    out_.cases.push_back(std::move(c));
    w_.at("testGroups[" + std::to_string(g) + "]");
  }
}

ImportedFile Reader::read(std::string_view text) {
  out_.format = Format::kWycheproof;
  const json doc = parse_json(text, w_);
  if (!doc.is_object()) w_.fail("(document)", "must be a JSON object");
  only_fields(doc, {"algorithm", "schema", "generatorVersion", "numberOfTests", "header", "notes",
                    "testGroups"},
              w_);
  out_.algorithm = string_field(doc, "algorithm", w_);
  const std::string schema = string_field(doc, "schema", w_);
  const uint64_t declared = uint_field(doc, "numberOfTests", w_);

  const Mac* mac = nullptr;
  for (const Mac& m : kMacs)
    if (m.wycheproof == out_.algorithm) mac = &m;
  std::string why;
  if (!mac) why = out_.algorithm + ": not an algorithm of lockstep";
  else if (mac->hash.empty()) why = out_.algorithm + ": " + std::string(mac->why);
  else if (schema.rfind("mac_test_schema", 0) != 0)
    w_.fail("schema", "'" + schema + "' for " + out_.algorithm + " (expected mac_test_schema_v1.json)");

  const json& groups = array_field(doc, "testGroups", w_);
  for (size_t g = 0; g < groups.size(); ++g) {
    w_.at("testGroups[" + std::to_string(g) + "]");
    const json& group = groups[g];
    if (!group.is_object()) w_.fail_here("a group must be an object");
    const std::string type = string_field(group, "type", w_);
    if (!why.empty()) skipped_group(group, g, why);
    else if (type == "MacTest") mac_group(group, g, *mac);
    else skipped_group(group, g, out_.algorithm + ": group type " + type + " (lockstep reads MacTest)");
  }
  w_.at("");
  if (declared != out_.cases.size())
    w_.fail("numberOfTests", "is " + std::to_string(declared) + " but the file has " +
                                 std::to_string(out_.cases.size()) + " tests");
  return std::move(out_);
}

}  // namespace

ImportedFile read_wycheproof(std::string_view text, const std::string& name) {
  return Reader(name).read(text);
}

}  // namespace lockstep::vectors::import
