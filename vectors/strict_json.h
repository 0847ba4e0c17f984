// JSON as the vector readers take it: nlohmann's parser, plus what it does
// not check by itself, a key twice in one object (the library keeps the
// last, and a second "md" is almost certainly a mistake) and nesting deeper
// than a bound. In one pass, linear in the text: the library's own parser
// callback, which the readers used before, scans the enclosing array again
// at the end of every object, so a file of 200,000 tests took a minute.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockstep::vectors {

struct JsonProblem {
  enum Kind { kNone, kSyntax, kDuplicateKey, kTooDeep } kind = kNone;
  // kSyntax: the parser's message; kDuplicateKey: the key; kTooDeep: "".
  std::string detail;
};

// parse_strict_json parses `text` into a document, or leaves `problem` set
// to the first thing wrong in it, in text order. `max_depth` bounds how
// many arrays and objects may enclose a value, as the parser callback's
// depth counted them.
nlohmann::json parse_strict_json(std::string_view text, int max_depth, JsonProblem& problem);

}  // namespace lockstep::vectors
