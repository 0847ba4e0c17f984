// The vector file loader. Strict on purpose: a field the loader does not
// know, a missing field or a value of the wrong type is an error, never
// silently ignored, so a typo cannot turn a test into a no-op. A fuzzer
// drives this code, so every size that comes from the file is bounded.
#include "vector_file.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <initializer_list>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include "strict_json.h"

namespace lockstep::vectors {
namespace {

using json = nlohmann::json;

// The consolidated rules hash about max_len^2/2 bytes (the HMAC one holds
// them in memory); the kernel uses 4096.
constexpr uint64_t kMaxConsolidatedLen = 16384;

// Our files nest six levels deep at most; deeper input is not ours.
constexpr int kMaxDepth = 8;

constexpr std::string_view kHashSchema = "lockstep-hash-v1";
constexpr std::string_view kHmacSchema = "lockstep-hmac-v1";
constexpr std::string_view kFinup2xSchema = "lockstep-finup2x-v1";
constexpr std::string_view kChachaSchema = "lockstep-chacha-v1";
constexpr std::string_view kHChachaSchema = "lockstep-hchacha-v1";

struct Algorithm {
  std::string_view display;  // the file's "algorithm"
  std::string_view catalog;
  std::string_view schema;
  size_t size;  // digest or full tag size; the nonce size of a cipher
};

constexpr Algorithm kAlgorithms[] = {
    {"SHA-224", "sha224", kHashSchema, 28},
    {"SHA-256", "sha256", kHashSchema, 32},
    {"SHA-384", "sha384", kHashSchema, 48},
    {"SHA-512", "sha512", kHashSchema, 64},
    {"SHA-512/224", "sha512-224", kHashSchema, 28},
    {"SHA-512/256", "sha512-256", kHashSchema, 32},
    {"HMAC-SHA224", "hmac-sha224", kHmacSchema, 28},
    {"HMAC-SHA256", "hmac-sha256", kHmacSchema, 32},
    {"HMAC-SHA384", "hmac-sha384", kHmacSchema, 48},
    {"HMAC-SHA512", "hmac-sha512", kHmacSchema, 64},
    {"HMAC-SHA512/224", "hmac-sha512-224", kHmacSchema, 28},
    {"HMAC-SHA512/256", "hmac-sha512-256", kHmacSchema, 32},
    {"ChaCha20", "chacha20", kChachaSchema, 12},
    {"ChaCha12", "chacha12", kChachaSchema, 12},
    {"XChaCha20", "xchacha20", kChachaSchema, 24},
    {"HChaCha20", "hchacha20", kHChachaSchema, 16},
};

const Algorithm* find_algorithm(std::string_view display) {
  for (const Algorithm& a : kAlgorithms)
    if (a.display == display) return &a;
  return nullptr;
}

// The name a message shows for `path`: relative to data_dir() when the file
// is one of ours, as given otherwise.
std::string display_name(const std::filesystem::path& path) {
  const std::filesystem::path base = data_dir().lexically_normal();
  const std::filesystem::path p = path.lexically_normal();
  auto [b, q] = std::mismatch(base.begin(), base.end(), p.begin(), p.end());
  if (b == base.end() && q != p.end()) return p.lexically_relative(base).generic_string();
  return path.generic_string();
}

class Parser {
 public:
  Parser(std::string file, uint64_t budget) : file_(std::move(file)), budget_(budget) {}

  VectorFile parse(const std::string& text);

 private:
  // fail throws the VectorError for `field` at the current place.
  [[noreturn]] void fail(std::string_view field, std::string_view what) const {
    std::string msg = file_ + ": ";
    if (tc_id_) msg += "tcId " + std::to_string(*tc_id_) + ": ";
    else if (!where_.empty()) msg += where_ + ": ";
    msg += "field '";
    msg += field;
    msg += "': ";
    msg += what;
    throw VectorError(msg);
  }

  // check_fields rejects fields not in `allowed` and missing `required` ones.
  void check_fields(const json& obj, std::initializer_list<std::string_view> allowed,
                    std::initializer_list<std::string_view> required,
                    std::string_view prefix = "") const {
    for (const auto& item : obj.items()) {
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
        fail(std::string(prefix) + item.key(), "unknown field");
    }
    for (std::string_view r : required)
      if (!obj.contains(r)) fail(std::string(prefix) + std::string(r), "missing");
  }

  const json& member(const json& obj, std::string_view name) const {
    auto it = obj.find(name);
    if (it == obj.end()) fail(name, "missing");
    return *it;
  }

  std::string string_field(const json& obj, std::string_view name) const {
    const json& v = member(obj, name);
    if (!v.is_string()) fail(name, std::string("must be a string, not ") + v.type_name());
    return v.get<std::string>();
  }

  uint64_t uint_field(const json& v, std::string_view name) const {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) fail(name, "must not be negative");
    fail(name, std::string("must be a non-negative integer, not ") + v.type_name());
  }

  const json& object_field(const json& obj, std::string_view name) const {
    const json& v = member(obj, name);
    if (!v.is_object()) fail(name, std::string("must be an object, not ") + v.type_name());
    return v;
  }

  const json& array_field(const json& obj, std::string_view name) const {
    const json& v = member(obj, name);
    if (!v.is_array()) fail(name, std::string("must be an array, not ") + v.type_name());
    return v;
  }

  Bytes hex(const json& v, std::string_view name) const;
  Bytes bytes_field(const json& obj, std::string_view name);
  void spend(uint64_t n, std::string_view name) {
    if (n > budget_)
      fail(name, "expands to " + std::to_string(n) + " bytes, over the limit of " +
                     std::to_string(budget_) + " bytes left for this file");
    budget_ -= n;
  }
  void parse_common(const json& t, TestCommon& c, size_t group, size_t index);
  Bytes sized(const json& obj, std::string_view name, size_t min, size_t max) const;

  std::string file_;
  uint64_t budget_;
  std::optional<int> tc_id_;  // the test being parsed, once its tcId is known
  std::string where_;         // "testGroups[1].tests[2]" until then
  std::map<int, std::string> seen_ids_;
  std::set<std::string> notes_;
  const Algorithm* alg_ = nullptr;
};

int digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Bytes Parser::hex(const json& v, std::string_view name) const {
  if (!v.is_string()) fail(name, std::string("must be a hex string, not ") + v.type_name());
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() % 2) fail(name, "odd number of hex digits");
  Bytes out(s.size() / 2);
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = digit(s[i]), lo = digit(s[i + 1]);
    if (hi < 0 || lo < 0)
      fail(name, "not a hex digit at offset " + std::to_string(hi < 0 ? i : i + 1));
    out[i / 2] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return out;
}

// bytes_field reads an input: a hex string or a descriptor.
Bytes Parser::bytes_field(const json& obj, std::string_view name) {
  const json& v = member(obj, name);
  if (v.is_string()) return hex(v, name);
  if (!v.is_object())
    fail(name, std::string("must be a hex string or a descriptor object, not ") + v.type_name());
  const std::string prefix = std::string(name) + ".";
  if (v.contains("kernelData")) {
    check_fields(v, {"kernelData"}, {"kernelData"}, prefix);
    const uint64_t n = uint_field(v["kernelData"], prefix + "kernelData");
    spend(n, prefix + "kernelData");
    return kernel_data(n);
  }
  if (v.contains("pattern") || v.contains("repeat")) {
    check_fields(v, {"pattern", "repeat"}, {"pattern", "repeat"}, prefix);
    const Bytes pattern = hex(v["pattern"], prefix + "pattern");
    if (pattern.empty()) fail(prefix + "pattern", "must not be empty");
    const uint64_t repeat = uint_field(v["repeat"], prefix + "repeat");
    if (repeat > budget_ / pattern.size())
      fail(prefix + "repeat", "expands to more than the limit of " + std::to_string(budget_) +
                                  " bytes left for this file");
    spend(repeat * pattern.size(), prefix + "repeat");
    Bytes out;
    out.reserve(repeat * pattern.size());
    for (uint64_t i = 0; i < repeat; ++i) out.insert(out.end(), pattern.begin(), pattern.end());
    return out;
  }
  fail(name, "a descriptor is {\"pattern\": hex, \"repeat\": n} or {\"kernelData\": n}");
}

// sized reads an expected value: hex only, of a length in [min, max].
Bytes Parser::sized(const json& obj, std::string_view name, size_t min, size_t max) const {
  Bytes b = hex(member(obj, name), name);
  if (b.size() < min || b.size() > max) {
    const std::string want = min == max ? std::to_string(min)
                                        : std::to_string(min) + ".." + std::to_string(max);
    fail(name, "has " + std::to_string(b.size()) + " bytes, expected " + want);
  }
  return b;
}

void Parser::parse_common(const json& t, TestCommon& c, size_t group, size_t index) {
  tc_id_.reset();
  where_ = "testGroups[" + std::to_string(group) + "].tests[" + std::to_string(index) + "]";
  const json& id = member(t, "tcId");
  const uint64_t n = uint_field(id, "tcId");
  if (n < 1 || n > INT_MAX) fail("tcId", "must be in 1.." + std::to_string(INT_MAX));
  c.tc_id = static_cast<int>(n);
  tc_id_ = c.tc_id;
  auto [it, fresh] = seen_ids_.emplace(c.tc_id, where_);
  if (!fresh) fail("tcId", "duplicate (also at " + it->second + ")");

  c.comment = string_field(t, "comment");
  const json& flags = array_field(t, "flags");
  for (const json& f : flags) {
    if (!f.is_string()) fail("flags", std::string("must hold strings, not ") + f.type_name());
    std::string flag = f.get<std::string>();
    if (!notes_.count(flag)) fail("flags", "flag '" + flag + "' is not described in 'notes'");
    c.flags.push_back(std::move(flag));
  }
  const std::string result = string_field(t, "result");
  if (result == "valid") c.result = Result::kValid;
  else if (result == "invalid") c.result = Result::kInvalid;
  else if (result == "acceptable") c.result = Result::kAcceptable;
  else fail("result", "unknown result '" + result + "' (valid, invalid or acceptable)");
}

VectorFile Parser::parse(const std::string& text) {
  // Duplicate keys are refused: the JSON library would keep only the last
  // of two equal keys, and a duplicated "md" is almost certainly a mistake.
  JsonProblem problem;
  const json doc = parse_strict_json(text, kMaxDepth, problem);
  if (problem.kind == JsonProblem::kSyntax) throw VectorError(file_ + ": not valid JSON: " + problem.detail);
  if (problem.kind == JsonProblem::kDuplicateKey) fail(problem.detail, "duplicate key in one object");
  if (problem.kind == JsonProblem::kTooDeep) fail("(document)", "nested deeper than " + std::to_string(kMaxDepth));

  if (!doc.is_object()) fail("(document)", "must be a JSON object");
  check_fields(doc, {"algorithm", "schema", "numberOfTests", "header", "notes", "testGroups"},
               {"algorithm", "schema", "numberOfTests", "testGroups"});

  VectorFile vf;
  vf.schema = string_field(doc, "schema");
  if (vf.schema != kHashSchema && vf.schema != kHmacSchema && vf.schema != kFinup2xSchema &&
      vf.schema != kChachaSchema && vf.schema != kHChachaSchema)
    fail("schema", "unknown schema '" + vf.schema + "'");
  vf.algorithm = string_field(doc, "algorithm");
  alg_ = find_algorithm(vf.algorithm);
  if (!alg_) fail("algorithm", "unknown algorithm '" + vf.algorithm + "'");
  const bool finup = vf.schema == kFinup2xSchema;
  if (finup ? alg_->catalog != "sha256" : alg_->schema != vf.schema)
    fail("algorithm", "'" + vf.algorithm + "' is not an algorithm of " + vf.schema);

  const uint64_t declared = uint_field(member(doc, "numberOfTests"), "numberOfTests");
  if (doc.contains("header")) {
    for (const json& line : array_field(doc, "header"))
      if (!line.is_string()) fail("header", std::string("must hold strings, not ") + line.type_name());
  }
  if (doc.contains("notes")) {
    for (const auto& item : object_field(doc, "notes").items()) {
      if (!item.value().is_string()) fail("notes." + item.key(), "must be a string describing the flag");
      notes_.insert(item.key());
    }
  }

  const json& groups = array_field(doc, "testGroups");
  for (size_t g = 0; g < groups.size(); ++g) {
    const json& group = groups[g];
    tc_id_.reset();
    where_ = "testGroups[" + std::to_string(g) + "]";
    if (!group.is_object()) fail("testGroups", "must hold objects");
    check_fields(group, {"type", "source", "tests"}, {"type", "source", "tests"});
    const std::string type = string_field(group, "type");
    (void)string_field(group, "source");
    const json& tests = array_field(group, "tests");

    const bool hashing = vf.schema == kHashSchema || vf.schema == kHmacSchema;
    const bool consolidated = type == "KernelConsolidated" && hashing;
    const std::string_view expected_type = vf.schema == kHashSchema     ? "HashTest"
                                           : vf.schema == kHmacSchema   ? "MacTest"
                                           : vf.schema == kChachaSchema ? "CipherTest"
                                           : vf.schema == kHChachaSchema ? "HChaChaTest"
                                                                         : "Finup2xTest";
    if (!consolidated && type != expected_type) {
      fail("type", "unknown group type '" + type + "' in " + vf.schema + " (" +
                       std::string(expected_type) + (hashing ? " or KernelConsolidated" : "") + ")");
    }
    const std::string_view value_name = vf.schema == kHashSchema ? "md" : "tag";

    for (size_t i = 0; i < tests.size(); ++i) {
      const json& t = tests[i];
      where_ = "testGroups[" + std::to_string(g) + "].tests[" + std::to_string(i) + "]";
      tc_id_.reset();
      if (!t.is_object()) fail("tests", "must hold objects");
      if (consolidated) {
        ConsolidatedTest c;
        parse_common(t, c, g, i);
        check_fields(t, {"tcId", "comment", "flags", "result", "maxLen", value_name},
                     {"tcId", "comment", "flags", "result", "maxLen", value_name});
        c.max_len = uint_field(t["maxLen"], "maxLen");
        if (c.max_len > kMaxConsolidatedLen)
          fail("maxLen", "must be at most " + std::to_string(kMaxConsolidatedLen));
        c.value = sized(t, value_name, alg_->size, alg_->size);
        vf.consolidated.push_back(std::move(c));
      } else if (vf.schema == kHashSchema) {
        HashTest h;
        parse_common(t, h, g, i);
        check_fields(t, {"tcId", "comment", "flags", "result", "msg", "md"},
                     {"tcId", "comment", "flags", "result", "msg", "md"});
        h.msg = bytes_field(t, "msg");
        h.md = sized(t, "md", alg_->size, alg_->size);
        vf.hash.push_back(std::move(h));
      } else if (vf.schema == kHmacSchema) {
        HmacTest h;
        parse_common(t, h, g, i);
        check_fields(t, {"tcId", "comment", "flags", "result", "key", "msg", "tag"},
                     {"tcId", "comment", "flags", "result", "key", "msg", "tag"});
        h.key = bytes_field(t, "key");
        h.msg = bytes_field(t, "msg");
        h.tag = sized(t, "tag", 1, alg_->size);
        vf.hmac.push_back(std::move(h));
      } else if (vf.schema == kChachaSchema) {
        ChachaTest c;
        parse_common(t, c, g, i);
        check_fields(t, {"tcId", "comment", "flags", "result", "key", "nonce", "counter", "msg", "ct"},
                     {"tcId", "comment", "flags", "result", "key", "nonce", "counter", "msg", "ct"});
        c.key = sized(t, "key", 32, 32);
        c.nonce = sized(t, "nonce", alg_->size, alg_->size);
        const uint64_t counter = uint_field(t["counter"], "counter");
        if (counter > UINT32_MAX) fail("counter", "must be at most 2^32 - 1 (a 32-bit block counter)");
        c.counter = static_cast<uint32_t>(counter);
        c.msg = bytes_field(t, "msg");
        c.ct = hex(member(t, "ct"), "ct");
        if (c.ct.size() != c.msg.size())
          fail("ct", "has " + std::to_string(c.ct.size()) + " bytes, msg has " +
                         std::to_string(c.msg.size()));
        vf.chacha.push_back(std::move(c));
      } else if (vf.schema == kHChachaSchema) {
        HChachaTest h;
        parse_common(t, h, g, i);
        check_fields(t, {"tcId", "comment", "flags", "result", "key", "nonce", "subkey"},
                     {"tcId", "comment", "flags", "result", "key", "nonce", "subkey"});
        h.key = sized(t, "key", 32, 32);
        h.nonce = sized(t, "nonce", alg_->size, alg_->size);
        h.subkey = sized(t, "subkey", 32, 32);
        vf.hchacha.push_back(std::move(h));
      } else {
        Finup2xTest f;
        parse_common(t, f, g, i);
        check_fields(t, {"tcId", "comment", "flags", "result", "prefix", "data1", "data2", "md1", "md2"},
                     {"tcId", "comment", "flags", "result", "prefix", "data1", "data2", "md1", "md2"});
        f.prefix = bytes_field(t, "prefix");
        f.data1 = bytes_field(t, "data1");
        f.data2 = bytes_field(t, "data2");
        if (f.data1.size() != f.data2.size())
          fail("data2", "has " + std::to_string(f.data2.size()) + " bytes, data1 has " +
                            std::to_string(f.data1.size()) + " (finup_2x needs equal lengths)");
        f.md1 = sized(t, "md1", alg_->size, alg_->size);
        f.md2 = sized(t, "md2", alg_->size, alg_->size);
        vf.finup_2x.push_back(std::move(f));
      }
    }
  }
  tc_id_.reset();
  where_.clear();
  if (declared != vf.size())
    fail("numberOfTests", "is " + std::to_string(declared) + " but the file has " +
                              std::to_string(vf.size()) + " tests");
  return vf;
}

}  // namespace

VectorFile load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw VectorError(display_name(path) + ": cannot open: " + std::generic_category().message(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw VectorError(display_name(path) + ": read error");
  return load_from_string(text.str(), path);
}

VectorFile load_from_string(const std::string& text, const std::filesystem::path& name) {
  return load_from_string(text, name, kMaxExpandedBytes);
}

VectorFile load_from_string(const std::string& text, const std::filesystem::path& name,
                            uint64_t max_expanded_bytes) {
  VectorFile vf = Parser(display_name(name), max_expanded_bytes).parse(text);
  vf.path = name;
  return vf;
}

std::filesystem::path data_dir() { return LOCKSTEP_VECTORS_DATA_DIR; }

std::vector<std::filesystem::path> files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string catalog_name(const std::string& algorithm) {
  if (const Algorithm* a = find_algorithm(algorithm)) return std::string(a->catalog);
  throw std::invalid_argument("vectors: unknown algorithm '" + algorithm + "'");
}

Bytes kernel_data(size_t len) {
  Bytes out(len);
  uint64_t seed = len;
  for (size_t i = 0; i < len; ++i) {
    seed = (seed * 25214903917 + 11) & ((uint64_t{1} << 48) - 1);
    out[i] = static_cast<uint8_t>(seed >> 16);
  }
  return out;
}

}  // namespace lockstep::vectors
