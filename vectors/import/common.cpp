// What the readers share, and the detection of a file's format.
#include <algorithm>
#include <cctype>

#include "reader_util.h"
#include "strict_json.h"

namespace lockstep::vectors::import {

std::string_view format_name(Format f) {
  switch (f) {
    case Format::kWycheproof: return "Wycheproof";
    case Format::kAcvp: return "ACVP";
    case Format::kCavp: return "CAVP";
    case Format::kBotan: return "Botan";
    case Format::kKizzycode: return "KizzyCode";
    case Format::kLockstep: return "lockstep";
  }
  return "?";
}

namespace detail {

void Where::fail(std::string_view field, std::string_view what) const {
  std::string msg = file_ + ": ";
  if (!test_.empty()) msg += test_ + ": ";
  msg += "field '";
  msg += field;
  msg += "': ";
  msg += what;
  throw ImportError(msg);
}

void Where::fail_here(std::string_view what) const {
  std::string msg = file_ + ": ";
  if (!test_.empty()) msg += test_ + ": ";
  msg += what;
  throw ImportError(msg);
}

namespace {

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Bytes hex(std::string_view s, std::string_view field, const Where& w) {
  if (s.size() % 2) w.fail(field, "odd number of hex digits");
  Bytes out(s.size() / 2);
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = nibble(s[i]), lo = nibble(s[i + 1]);
    if (hi < 0 || lo < 0)
      w.fail(field, "not a hex digit at offset " + std::to_string(hi < 0 ? i : i + 1));
    out[i / 2] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return out;
}

std::string to_hex(const Bytes& b, size_t max_bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  const size_t n = std::min(b.size(), max_bytes);
  s.reserve(2 * n + 3);
  for (size_t i = 0; i < n; ++i) {
    s += kDigits[b[i] >> 4];
    s += kDigits[b[i] & 15];
  }
  if (n < b.size()) s += "...";
  return s;
}

std::optional<uint64_t> parse_u64(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

size_t digest_size(std::string_view hash) {
  if (hash == "sha224") return 28;
  if (hash == "sha256") return 32;
  if (hash == "sha384") return 48;
  if (hash == "sha512") return 64;
  if (hash == "sha512-224") return 28;
  if (hash == "sha512-256") return 32;
  return 0;
}

// --- JSON -------------------------------------------------------------------

namespace {

// Upstream files nest five levels deep at most (ACVP: document, groups,
// group, tests, test, largeMsg); anything much deeper is not a vector file.
constexpr int kMaxDepth = 16;

}  // namespace

json parse_json(std::string_view text, const Where& w) {
  JsonProblem problem;
  json doc = parse_strict_json(text, kMaxDepth, problem);
  if (problem.kind == JsonProblem::kSyntax) w.fail_here("not valid JSON: " + problem.detail);
  if (problem.kind == JsonProblem::kDuplicateKey) w.fail(problem.detail, "duplicate key in one object");
  if (problem.kind == JsonProblem::kTooDeep) w.fail("(document)", "nested deeper than " + std::to_string(kMaxDepth));
  return doc;
}

const json* optional_member(const json& obj, std::string_view name) {
  const auto it = obj.find(name);
  return it == obj.end() ? nullptr : &*it;
}

const json& member(const json& obj, std::string_view name, const Where& w) {
  const json* v = optional_member(obj, name);
  if (!v) w.fail(name, "missing");
  return *v;
}

std::string string_field(const json& obj, std::string_view name, const Where& w) {
  const json& v = member(obj, name, w);
  if (!v.is_string()) w.fail(name, std::string("must be a string, not ") + v.type_name());
  return v.get<std::string>();
}

uint64_t uint_field(const json& obj, std::string_view name, const Where& w) {
  const json& v = member(obj, name, w);
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) w.fail(name, "must not be negative");
  w.fail(name, std::string("must be a non-negative integer, not ") + v.type_name());
}

bool bool_field(const json& obj, std::string_view name, const Where& w) {
  const json& v = member(obj, name, w);
  if (!v.is_boolean()) w.fail(name, std::string("must be true or false, not ") + v.type_name());
  return v.get<bool>();
}

const json& array_field(const json& obj, std::string_view name, const Where& w) {
  const json& v = member(obj, name, w);
  if (!v.is_array()) w.fail(name, std::string("must be an array, not ") + v.type_name());
  return v;
}

const json& object_field(const json& obj, std::string_view name, const Where& w) {
  const json& v = member(obj, name, w);
  if (!v.is_object()) w.fail(name, std::string("must be an object, not ") + v.type_name());
  return v;
}

Bytes hex_field(const json& obj, std::string_view name, const Where& w) {
  const json& v = member(obj, name, w);
  if (!v.is_string()) w.fail(name, std::string("must be a hex string, not ") + v.type_name());
  return hex(v.get_ref<const std::string&>(), name, w);
}

void only_fields(const json& obj, std::initializer_list<std::string_view> allowed, const Where& w) {
  for (const auto& item : obj.items())
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
      w.fail(item.key(), "unknown field");
}

// --- Text formats -----------------------------------------------------------

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    lines.push_back({++number, line});
  }
  return lines;
}

std::optional<Assignment> assignment(std::string_view line) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  return Assignment{trim(line.substr(0, eq)), trim(line.substr(eq + 1))};
}

}  // namespace detail

// --- Detection --------------------------------------------------------------

namespace {

using detail::json;

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool has(const json& obj, std::string_view key) { return obj.is_object() && obj.contains(key); }

// acvp_role tells a prompt (inputs only), expected results (answers only)
// and an internal projection (both) apart by their first test.
Kind acvp_role(const json& doc) {
  const json* groups = detail::optional_member(doc, "testGroups");
  if (!groups || !groups->is_array()) return Kind::kAcvpProjection;  // the reader says what is wrong
  for (const json& g : *groups) {
    const json* tests = has(g, "tests") ? &g["tests"] : nullptr;
    if (!tests || !tests->is_array()) continue;
    for (const json& t : *tests) {
      if (!t.is_object()) continue;
      const bool inputs = t.contains("msg") || t.contains("key") || t.contains("largeMsg");
      const bool answers = t.contains("md") || t.contains("mac") || t.contains("resultsArray");
      if (inputs && answers) return Kind::kAcvpProjection;
      if (inputs) return Kind::kAcvpPrompt;
      if (answers) return Kind::kAcvpExpected;
    }
  }
  return Kind::kAcvpProjection;
}

// acvp_body returns the vector set of an ACVP document: the object itself, or
// in the server's array form [{"acvVersion": ...}, {vector set}] the second.
const json* acvp_body(const json& doc) {
  if (doc.is_object()) return &doc;
  if (doc.is_array() && doc.size() == 2 && has(doc[0], "acvVersion") && doc[1].is_object())
    return &doc[1];
  return nullptr;
}

Detected detect_json(std::string_view text) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    // Broken JSON that looks like a vector file is reported by its reader,
    // as malformed; anything else is not ours.
    if (text.find("\"testGroups\"") == std::string_view::npos)
      return {Kind::kIgnored, "not valid JSON"};
    if (text.find("\"vsId\"") != std::string_view::npos) return {Kind::kAcvpProjection, ""};
    return {Kind::kWycheproof, ""};
  }
  if (has(doc, "$schema")) return {Kind::kIgnored, "a JSON schema"};
  if (has(doc, "schema") && doc["schema"].is_string()) {
    const std::string schema = doc["schema"].get<std::string>();
    // Every lockstep-* id goes to the loader, which names an unknown one.
    if (schema.rfind("lockstep-", 0) == 0) return {Kind::kLockstep, ""};
    if (has(doc, "testGroups")) return {Kind::kWycheproof, ""};
  }
  // KizzyCode's files: "crypto" known answers, maybe "error" and "api".
  if (doc.is_object() && has(doc, "crypto") && doc["crypto"].is_array() &&
      std::all_of(doc.items().begin(), doc.items().end(), [](const auto& item) {
        return item.key() == "crypto" || item.key() == "error" || item.key() == "api";
      }))
    return {Kind::kKizzycode, ""};
  if (const json* body = acvp_body(doc); body && (has(*body, "vsId") || has(*body, "revision"))) {
    if (!body->contains("testGroups")) return {Kind::kIgnored, "ACVP registration (no tests)"};
    return {acvp_role(*body), ""};
  }
  return {Kind::kIgnored, "JSON of no known vector format"};
}

}  // namespace

bool wants_content(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".json" || ext == ".rsp" || ext == ".vec";
}

Detected detect(const std::filesystem::path& path, std::string_view text) {
  const std::string ext = lower_extension(path);
  if (ext == ".json") return detect_json(text);
  if (ext == ".rsp") {
    // CAVP response files of other algorithms (AES, DRBG, ...) share the
    // extension; the SHA ones have [L = n] sections and MD values.
    if (text.find("[L = ") != std::string_view::npos && text.find("MD = ") != std::string_view::npos)
      return {Kind::kCavp, ""};
    return {Kind::kIgnored, "CAVP response file of another kind (no [L = n] and MD)"};
  }
  if (ext == ".vec") return {Kind::kBotan, ""};
  return {Kind::kIgnored, "not a vector file type (.json, .rsp, .vec)"};
}

}  // namespace lockstep::vectors::import
