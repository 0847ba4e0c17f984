// ACVP JSON (usnistgov/ACVP-Server gen-val/json-files): SHA2-* (AFT, MCT in
// both versions, LDT) and HMAC-SHA2-* (AFT), from prompt.json with
// expectedResults.json or from internalProjection.json, which holds both.
// Lengths are in bits; what is not whole bytes is skipped with the reason.
#include <map>

#include "reader_util.h"

namespace lockstep::vectors::import {
namespace {

using namespace detail;

struct Alg {
  std::string_view acvp;
  std::string_view hash;  // catalog hash, "" when lockstep lacks it
  bool hmac;
  std::string_view why;
};

constexpr Alg kAlgs[] = {
    {"SHA2-224", "sha224", false, ""},
    {"SHA2-256", "sha256", false, ""},
    {"SHA2-384", "sha384", false, ""},
    {"SHA2-512", "sha512", false, ""},
    {"SHA2-512/224", "sha512-224", false, ""},
    {"SHA2-512/256", "sha512-256", false, ""},
    {"HMAC-SHA2-224", "sha224", true, ""},
    {"HMAC-SHA2-256", "sha256", true, ""},
    {"HMAC-SHA2-384", "sha384", true, ""},
    {"HMAC-SHA2-512", "sha512", true, ""},
    {"HMAC-SHA2-512/224", "sha512-224", true, ""},
    {"HMAC-SHA2-512/256", "sha512-256", true, ""},
};

// ACVP's MCT has 100 checkpoints (3 in sample vector sets).
constexpr size_t kMaxCheckpoints = 100;

constexpr std::string_view kBitOriented = "bit-oriented message; lockstep hashes bytes";

// body returns the vector set of a document: the object itself, or in the
// server's array form [{"acvVersion": ...}, {vector set}] the second.
const json& body(const json& doc, const Where& w) {
  if (doc.is_object()) return doc;
  if (doc.is_array() && doc.size() == 2 && doc[0].is_object() && doc[0].contains("acvVersion") &&
      doc[1].is_object())
    return doc[1];
  w.fail("(document)", "must be an ACVP vector set: an object, or [{\"acvVersion\": ...}, {...}]");
}

class AcvpReader {
 public:
  // Prompt and answers in two files, or both in one (answers == prompt).
  AcvpReader(Where& prompt, Where& answers) : pw_(prompt), aw_(answers) {}

  ImportedFile read(const json& prompt, const json* answers);

 private:
  struct Answer {
    uint64_t tg;
    const json* test;
    bool used = false;
  };

  void index_answers(const json& doc);
  const json& answer(uint64_t tg, uint64_t tc, const json& prompt_test);
  void group(const json& g, size_t index);
  void sha_test(Case& c, const json& t, const json& g, const std::string& type, const json& a);
  void hmac_test(Case& c, const json& t, const json& g, const std::string& type, const json& a);
  Bytes message(const json& t, uint64_t bits, std::string_view field);
  Bytes digest(const json& a, std::string_view field);

  Where& pw_;
  Where& aw_;
  bool split_ = false;  // answers in their own file
  const Alg* alg_ = nullptr;  // null: an algorithm lockstep does not know
  ImportedFile out_;
  std::map<uint64_t, Answer> answers_;  // tcId -> its answer (split files)
  std::map<uint64_t, uint64_t> seen_;   // tcId -> tgId, in the prompt
};

void check_header(const json& doc, const Where& w) {
  only_fields(doc, {"vsId", "algorithm", "mode", "revision", "isSample", "testGroups"}, w);
  (void)uint_field(doc, "vsId", w);
  (void)string_field(doc, "algorithm", w);
  if (doc.contains("mode")) (void)string_field(doc, "mode", w);
  if (doc.contains("revision")) (void)string_field(doc, "revision", w);
  if (doc.contains("isSample")) (void)bool_field(doc, "isSample", w);
}

void AcvpReader::index_answers(const json& doc) {
  const json& groups = array_field(doc, "testGroups", aw_);
  for (size_t g = 0; g < groups.size(); ++g) {
    aw_.at("testGroups[" + std::to_string(g) + "]");
    if (!groups[g].is_object()) aw_.fail_here("a group must be an object");
    only_fields(groups[g], {"tgId", "tests"}, aw_);
    const uint64_t tg = uint_field(groups[g], "tgId", aw_);
    const json& tests = array_field(groups[g], "tests", aw_);
    for (size_t i = 0; i < tests.size(); ++i) {
      aw_.at("tgId " + std::to_string(tg) + " tests[" + std::to_string(i) + "]");
      if (!tests[i].is_object()) aw_.fail_here("a test must be an object");
      only_fields(tests[i], {"tcId", "md", "mac", "resultsArray"}, aw_);
      const uint64_t tc = uint_field(tests[i], "tcId", aw_);
      aw_.at("tgId " + std::to_string(tg) + " tcId " + std::to_string(tc));
      if (!answers_.emplace(tc, Answer{tg, &tests[i]}).second) aw_.fail("tcId", "duplicate");
    }
  }
  aw_.at("");
}

const json& AcvpReader::answer(uint64_t tg, uint64_t tc, const json& prompt_test) {
  aw_.at(pw_.test());
  if (!split_) return prompt_test;
  const auto it = answers_.find(tc);
  if (it == answers_.end()) aw_.fail_here("missing (" + pw_.file() + " has this test)");
  if (it->second.tg != tg)
    aw_.fail_here("is in tgId " + std::to_string(it->second.tg) + " here but in tgId " +
                  std::to_string(tg) + " in " + pw_.file());
  it->second.used = true;
  return *it->second.test;
}

Bytes AcvpReader::message(const json& t, uint64_t bits, std::string_view field) {
  Bytes m = hex_field(t, field, pw_);
  const uint64_t need = bits / 8;
  // An empty message is written "00" in places, as in CAVP.
  if (need == 0 && m.size() == 1 && m[0] == 0) m.clear();
  if (m.size() != need)
    pw_.fail(field, "has " + std::to_string(m.size()) + " bytes, the length says " +
                        std::to_string(bits) + " bits");
  return m;
}

Bytes AcvpReader::digest(const json& a, std::string_view field) {
  Bytes d = hex_field(a, field, aw_);
  const size_t want = digest_size(alg_->hash);
  if (d.size() != want)
    aw_.fail(field, "has " + std::to_string(d.size()) + " bytes, expected " + std::to_string(want));
  return d;
}

void AcvpReader::sha_test(Case& c, const json& t, const json& g, const std::string& type,
                      const json& a) {
  if (type == "AFT" || type == "MCT") {
    const uint64_t bits = uint_field(t, "len", pw_);
    if (bits % 8) {
      (void)hex_field(t, "msg", pw_);
      c.skip = kBitOriented;
      return;
    }
    const Bytes msg = message(t, bits, "msg");
    if (type == "AFT") {
      c.body = HashCase{msg, digest(a, "md")};
      return;
    }
    std::string version = "standard";
    if (g.contains("mctVersion")) version = string_field(g, "mctVersion", pw_);
    if (version != "standard" && version != "alternate")
      pw_.fail("mctVersion", "unknown version '" + version + "' (standard or alternate)");
    MonteCase m;
    m.seed = msg;
    m.label = "resultsArray";
    if (version == "alternate") {
      if (msg.empty()) pw_.fail("len", "the alternate MCT needs a seed of at least one byte");
      m.msg_len = msg.size();
    }
    const json& results = array_field(a, "resultsArray", aw_);
    if (results.empty() || results.size() > kMaxCheckpoints)
      aw_.fail("resultsArray", "has " + std::to_string(results.size()) + " entries, expected 1.." +
                                   std::to_string(kMaxCheckpoints));
    for (size_t j = 0; j < results.size(); ++j) {
      const std::string field = "resultsArray[" + std::to_string(j) + "]";
      if (!results[j].is_object()) aw_.fail(field, "must be an object");
      for (const auto& item : results[j].items())
        if (item.key() != "md" && item.key() != "outLen") aw_.fail(field + "." + item.key(), "unknown field");
      if (results[j].contains("outLen") &&
          uint_field(results[j], "outLen", aw_) != 8 * digest_size(alg_->hash))
        aw_.fail(field + ".outLen", "is not the digest size");
      m.checkpoints.push_back(digest(results[j], "md"));
    }
    c.body = std::move(m);
    return;
  }
  if (type == "LDT") {
    if (t.contains("len")) (void)uint_field(t, "len", pw_);  // "0" in projections: unused
    const json& large = object_field(t, "largeMsg", pw_);
    for (const auto& item : large.items())
      if (item.key() != "content" && item.key() != "contentLength" && item.key() != "fullLength" &&
          item.key() != "expansionTechnique")
        pw_.fail("largeMsg." + item.key(), "unknown field");
    auto sub = [](std::string_view f) { return "largeMsg." + std::string(f); };
    const json& content_json = member(large, "content", pw_);
    if (!content_json.is_string()) pw_.fail(sub("content"), "must be a hex string");
    const Bytes content = hex(content_json.get_ref<const std::string&>(), sub("content"), pw_);
    auto number = [&](std::string_view f) {
      const json& v = member(large, f, pw_);
      if (!v.is_number_unsigned()) pw_.fail(sub(f), "must be a non-negative integer");
      return v.get<uint64_t>();
    };
    const uint64_t content_bits = number("contentLength");
    const uint64_t full_bits = number("fullLength");
    const json& technique = member(large, "expansionTechnique", pw_);
    if (!technique.is_string()) pw_.fail(sub("expansionTechnique"), "must be a string");
    const Bytes md = digest(a, "md");
    if (content_bits % 8 || full_bits % 8) {
      c.skip = "bit-oriented large message; lockstep hashes bytes";
      return;
    }
    if (content_bits / 8 != content.size())
      pw_.fail(sub("contentLength"), std::to_string(content_bits) + " bits, but content has " +
                                         std::to_string(content.size()) + " bytes");
    if (technique.get<std::string>() != "repeating") {
      c.skip = "LDT expansion technique '" + technique.get<std::string>() + "'";
      return;
    }
    if (content.empty() && full_bits) pw_.fail(sub("content"), "is empty, fullLength is not");
    c.body = LargeHashCase{content, full_bits / 8, md};
    return;
  }
  c.skip = "ACVP test type " + type + " (lockstep reads AFT, MCT and LDT)";
}

void AcvpReader::hmac_test(Case& c, const json& t, const json& g, const std::string& type,
                       const json& a) {
  if (type != "AFT") {
    c.skip = "ACVP test type " + type + " (lockstep reads AFT for HMAC)";
    return;
  }
  // Revision 1.0 gives the lengths per group, 2.0 per test.
  auto length = [&](std::string_view name) -> uint64_t {
    if (t.contains(name)) return uint_field(t, name, pw_);
    if (g.contains(name)) return uint_field(g, name, pw_);
    pw_.fail(name, "missing (neither the test nor its group has it)");
  };
  const uint64_t key_bits = length("keyLen"), msg_bits = length("msgLen"), mac_bits = length("macLen");
  MacCase m;
  if (key_bits % 8 || msg_bits % 8 || mac_bits % 8) {
    (void)hex_field(t, "key", pw_);
    (void)hex_field(t, "msg", pw_);
    (void)hex_field(a, "mac", aw_);
    c.skip = "bit-oriented key, message or MAC; lockstep works in bytes";
    return;
  }
  m.key = message(t, key_bits, "key");
  m.msg = message(t, msg_bits, "msg");
  const size_t full = digest_size(alg_->hash);
  if (mac_bits == 0 || mac_bits / 8 > full)
    pw_.fail("macLen", std::to_string(mac_bits) + " bits, expected 8.." + std::to_string(8 * full));
  m.tag = hex_field(a, "mac", aw_);
  if (m.tag.size() * 8 != mac_bits)
    aw_.fail("mac", "has " + std::to_string(m.tag.size()) + " bytes, macLen is " +
                        std::to_string(mac_bits) + " bits");
  m.mac_len = m.tag.size();
  c.body = std::move(m);
}

void AcvpReader::group(const json& g, size_t index) {
  pw_.at("testGroups[" + std::to_string(index) + "]");
  if (!g.is_object()) pw_.fail_here("a group must be an object");
  only_fields(g, {"tgId", "testType", "mctVersion", "function", "digestSize", "keyLen", "msgLen",
                  "macLen", "tests"},
              pw_);
  const uint64_t tg = uint_field(g, "tgId", pw_);
  pw_.at("tgId " + std::to_string(tg));
  const std::string type = string_field(g, "testType", pw_);
  const json& tests = array_field(g, "tests", pw_);
  for (size_t i = 0; i < tests.size(); ++i) {
    pw_.at("tgId " + std::to_string(tg) + " tests[" + std::to_string(i) + "]");
    const json& t = tests[i];
    if (!t.is_object()) pw_.fail_here("a test must be an object");
    only_fields(t, {"tcId", "msg", "len", "key", "keyLen", "msgLen", "macLen", "largeMsg", "md",
                    "mac", "resultsArray"},
                pw_);
    const uint64_t tc = uint_field(t, "tcId", pw_);
    const std::string id = "tgId " + std::to_string(tg) + " tcId " + std::to_string(tc);
    pw_.at(id);
    if (!seen_.emplace(tc, tg).second) pw_.fail("tcId", "duplicate");
    const json& a = answer(tg, tc, t);

    Case c;
    c.id = id;
    if (!alg_ || alg_->hash.empty()) {
      c.algorithm = out_.algorithm;
      c.skip = out_.algorithm + ": " +
               std::string(alg_ ? alg_->why : std::string_view("not an algorithm of lockstep"));
    } else if (alg_->hmac) {
      c.algorithm = "hmac-" + std::string(alg_->hash);
      hmac_test(c, t, g, type, a);
    } else {
      c.algorithm = std::string(alg_->hash);
      sha_test(c, t, g, type, a);
    }
    out_.cases.push_back(std::move(c));
  }
}

ImportedFile AcvpReader::read(const json& prompt, const json* answers) {
  out_.format = Format::kAcvp;
  check_header(prompt, pw_);
  out_.algorithm = string_field(prompt, "algorithm", pw_);
  split_ = answers != nullptr;
  if (split_) {
    check_header(*answers, aw_);
    if (string_field(*answers, "algorithm", aw_) != out_.algorithm)
      aw_.fail("algorithm", "is '" + string_field(*answers, "algorithm", aw_) + "', " + pw_.file() +
                                " has '" + out_.algorithm + "'");
    if (uint_field(*answers, "vsId", aw_) != uint_field(prompt, "vsId", pw_))
      aw_.fail("vsId", "differs from " + pw_.file() + "'s");
    index_answers(*answers);
  }
  for (const Alg& a : kAlgs)
    if (a.acvp == out_.algorithm) alg_ = &a;

  const json& groups = array_field(prompt, "testGroups", pw_);
  for (size_t g = 0; g < groups.size(); ++g) group(groups[g], g);
  pw_.at("");
  for (const auto& [tc, a] : answers_) {
    if (a.used) continue;
    aw_.at("tgId " + std::to_string(a.tg) + " tcId " + std::to_string(tc));
    aw_.fail_here("not in " + pw_.file());
  }
  return std::move(out_);
}

}  // namespace

ImportedFile read_acvp(std::string_view prompt, const std::string& prompt_name,
                       std::string_view expected, const std::string& expected_name) {
  Where pw(prompt_name), aw(expected_name);
  const json p = parse_json(prompt, pw);
  const json e = parse_json(expected, aw);
  ImportedFile f = AcvpReader(pw, aw).read(body(p, pw), &body(e, aw));
  f.name = prompt_name;
  return f;
}

ImportedFile read_acvp_projection(std::string_view text, const std::string& name) {
  Where w(name);
  const json doc = parse_json(text, w);
  ImportedFile f = AcvpReader(w, w).read(body(doc, w), nullptr);
  f.name = name;
  return f;
}

}  // namespace lockstep::vectors::import
