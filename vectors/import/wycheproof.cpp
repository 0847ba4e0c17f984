// Wycheproof JSON (testvectors_v1): MacTest groups of HMAC-SHA-2, and the
// ChaCha files (wycheproof_chacha.cpp). Every other file is read far enough
// to name and count its tests, each of which becomes a skipped case with the
// reason.
#include "wycheproof_file.h"

namespace lockstep::vectors::import {
namespace detail {

uint64_t WycheproofFile::begin_test(const json& t, size_t group, size_t index) {
  const std::string where =
      "testGroups[" + std::to_string(group) + "].tests[" + std::to_string(index) + "]";
  w.at(where);
  if (!t.is_object()) w.fail_here("a test must be an object");
  const uint64_t id = uint_field(t, "tcId", w);
  w.at("tcId " + std::to_string(id));
  const auto [it, fresh] = ids_.emplace(id, where);
  if (!fresh) w.fail("tcId", "duplicate (also at " + it->second + ")");
  return id;
}

Expect WycheproofFile::result(const json& t) {
  (void)string_field(t, "comment", w);
  for (const json& f : array_field(t, "flags", w))
    if (!f.is_string()) w.fail("flags", std::string("must hold strings, not ") + f.type_name());
  const std::string result = string_field(t, "result", w);
  if (result == "valid") return Expect::kMatch;
  if (result == "invalid") return Expect::kMismatch;
  if (result == "acceptable") return Expect::kEither;
  w.fail("result", "unknown result '" + result + "' (valid, invalid or acceptable)");
}

void WycheproofFile::skip_test(uint64_t id, const std::string& why) {
  Case c;
  c.id = "tcId " + std::to_string(id);
  c.algorithm = out.algorithm;
  c.skip = why;
  out.cases.push_back(std::move(c));
}

}  // namespace detail

namespace {

using namespace detail;

// What a file holds, by its "algorithm": MAC tests over a catalog hash, or
// ChaCha keystreams inside an AEAD.
struct Kind {
  std::string_view wycheproof;
  std::string_view hash;    // MacTest: the catalog hash
  std::string_view cipher;  // AeadTest: the catalog cipher
};

constexpr Kind kKinds[] = {
    {"HMACSHA224", "sha224", ""},
    {"HMACSHA256", "sha256", ""},
    {"HMACSHA384", "sha384", ""},
    {"HMACSHA512", "sha512", ""},
    {"HMACSHA512/224", "sha512-224", ""},
    {"HMACSHA512/256", "sha512-256", ""},
    {"CHACHA20-POLY1305", "", "chacha20"},
    {"XCHACHA20-POLY1305", "", "xchacha20"},
};

void mac_group(WycheproofFile& f, const json& group, size_t g, std::string_view hash) {
  Where& w = f.w;
  only_fields(group, {"type", "source", "keySize", "tagSize", "tests"}, w);
  if (group.contains("keySize")) (void)uint_field(group, "keySize", w);
  const uint64_t tag_bits = uint_field(group, "tagSize", w);
  const size_t full = digest_size(hash);
  if (tag_bits == 0 || tag_bits > 8 * full)
    w.fail("tagSize", std::to_string(tag_bits) + " bits, expected 1.." + std::to_string(8 * full));
  const json& tests = array_field(group, "tests", w);
  for (size_t i = 0; i < tests.size(); ++i) {
    w.at("testGroups[" + std::to_string(g) + "]");
    const json& t = tests[i];
    const uint64_t id = f.begin_test(t, g, i);
    only_fields(t, {"tcId", "comment", "flags", "key", "msg", "tag", "result"}, w);
    MacCase m;
    m.expect = f.result(t);
    m.key = hex_field(t, "key", w);
    m.msg = hex_field(t, "msg", w);
    m.tag = hex_field(t, "tag", w);
    // A tag of another length can only be a test that must not verify.
    if (m.expect != Expect::kMismatch && m.tag.size() * 8 != tag_bits)
      w.fail("tag", "has " + std::to_string(m.tag.size()) + " bytes, tagSize is " +
                        std::to_string(tag_bits) + " bits");
    Case c;
    c.id = "tcId " + std::to_string(id);
    c.algorithm = "hmac-" + std::string(hash);
    if (tag_bits % 8) {
      c.skip = "tag of " + std::to_string(tag_bits) + " bits (not whole bytes)";
    } else {
      m.mac_len = tag_bits / 8;
      c.body = std::move(m);
    }
    f.out.cases.push_back(std::move(c));
  }
}

void skipped_group(WycheproofFile& f, const json& group, size_t g, const std::string& why) {
  const json& tests = array_field(group, "tests", f.w);
  for (size_t i = 0; i < tests.size(); ++i) {
    f.skip_test(f.begin_test(tests[i], g, i), why);
    f.w.at("testGroups[" + std::to_string(g) + "]");
  }
}

ImportedFile read(WycheproofFile& f, std::string_view text) {
  Where& w = f.w;
  f.out.format = Format::kWycheproof;
  const json doc = parse_json(text, w);
  if (!doc.is_object()) w.fail("(document)", "must be a JSON object");
  only_fields(doc, {"algorithm", "schema", "generatorVersion", "numberOfTests", "header", "notes",
                    "testGroups"},
              w);
  f.out.algorithm = string_field(doc, "algorithm", w);
  const std::string schema = string_field(doc, "schema", w);
  const uint64_t declared = uint_field(doc, "numberOfTests", w);

  // The schema says which group type to read; the algorithm, what it holds.
  const bool stream = schema.rfind("stream_cipher_test_schema", 0) == 0;
  const Kind* kind = nullptr;
  for (const Kind& k : kKinds)
    if (k.wycheproof == f.out.algorithm) kind = &k;
  std::string why, type;
  if (stream) {
    type = "StreamCipherTest";
  } else if (!kind) {
    why = f.out.algorithm + ": not an algorithm of lockstep";
  } else {
    type = kind->hash.empty() ? "AeadTest" : "MacTest";
    const std::string want = kind->hash.empty() ? "aead_test_schema" : "mac_test_schema";
    if (schema.rfind(want, 0) != 0)
      w.fail("schema", "'" + schema + "' for " + f.out.algorithm + " (expected " + want + "_v1.json)");
  }

  const json& groups = array_field(doc, "testGroups", w);
  for (size_t g = 0; g < groups.size(); ++g) {
    w.at("testGroups[" + std::to_string(g) + "]");
    const json& group = groups[g];
    if (!group.is_object()) w.fail_here("a group must be an object");
    const std::string group_type = string_field(group, "type", w);
    if (!why.empty()) skipped_group(f, group, g, why);
    else if (group_type != type)
      skipped_group(f, group, g, f.out.algorithm + ": group type " + group_type + " (lockstep reads " + type + ")");
    else if (stream) read_stream_group(f, group, g);
    else if (type == "AeadTest") read_aead_group(f, group, g, kind->cipher);
    else mac_group(f, group, g, kind->hash);
  }
  w.at("");
  if (declared != f.out.cases.size())
    w.fail("numberOfTests", "is " + std::to_string(declared) + " but the file has " +
                                std::to_string(f.out.cases.size()) + " tests");
  return std::move(f.out);
}

}  // namespace

ImportedFile read_wycheproof(std::string_view text, const std::string& name) {
  WycheproofFile f(name);
  return read(f, text);
}

}  // namespace lockstep::vectors::import
