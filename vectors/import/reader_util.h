// Helpers shared by the readers (not part of the importer's interface):
// error messages with file, test and field; hex; strict JSON access; lines.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "import.h"

namespace lockstep::vectors::import::detail {

using json = nlohmann::json;

// Where builds the ImportError messages of one file:
//   "<file>: <test>: field '<field>': <what>"
// The test part is left out at file level.
class Where {
 public:
  explicit Where(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  const std::string& test() const { return test_; }
  void at(std::string test) { test_ = std::move(test); }

  [[noreturn]] void fail(std::string_view field, std::string_view what) const;
  // fail_here is an error about the test (or file) as a whole.
  [[noreturn]] void fail_here(std::string_view what) const;

 private:
  std::string file_;
  std::string test_;
};

// hex decodes either case, even length, may be empty.
Bytes hex(std::string_view s, std::string_view field, const Where& w);
std::string to_hex(const Bytes& b, size_t max_bytes = SIZE_MAX);

// parse_u64 reads a decimal number without sign, spaces or overflow.
std::optional<uint64_t> parse_u64(std::string_view s);

// Digest size in bytes of a catalog hash ("sha256" -> 32), 0 if unknown.
size_t digest_size(std::string_view hash);

// --- JSON -------------------------------------------------------------------

// parse_json rejects malformed JSON, duplicate keys in one object (the
// library would keep the last silently) and nesting deeper than upstream
// files ever go.
json parse_json(std::string_view text, const Where& w);

const json& member(const json& obj, std::string_view name, const Where& w);
const json* optional_member(const json& obj, std::string_view name);
std::string string_field(const json& obj, std::string_view name, const Where& w);
uint64_t uint_field(const json& obj, std::string_view name, const Where& w);
bool bool_field(const json& obj, std::string_view name, const Where& w);
const json& array_field(const json& obj, std::string_view name, const Where& w);
const json& object_field(const json& obj, std::string_view name, const Where& w);
Bytes hex_field(const json& obj, std::string_view name, const Where& w);
// only_fields rejects a field not in `allowed`: a typo or a new upstream
// field must not turn into a test that checks less than it claims.
void only_fields(const json& obj, std::initializer_list<std::string_view> allowed, const Where& w);

// --- Text formats -----------------------------------------------------------

struct Line {
  size_t number;          // 1-based
  std::string_view text;  // without the line end (LF, CRLF) and trailing blanks
};
std::vector<Line> split_lines(std::string_view text);

// A "name = value" line, both sides trimmed; nullopt when there is no '='.
struct Assignment {
  std::string_view name;
  std::string_view value;
};
std::optional<Assignment> assignment(std::string_view line);

}  // namespace lockstep::vectors::import::detail
