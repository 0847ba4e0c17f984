#include "strict_json.h"

#include <set>
#include <utility>
#include <vector>

namespace lockstep::vectors {
namespace {

using json = nlohmann::json;

// Builds the document as nlohmann's own DOM parser does (a stack of the
// open containers; a value goes into the innermost), checking as it goes.
class StrictBuilder : public nlohmann::json_sax<json> {
 public:
  StrictBuilder(int max_depth, JsonProblem& problem) : max_depth_(max_depth), problem_(problem) {}
  json take() { return std::move(root_); }

  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override { return value(std::move(v)); }
  bool binary(binary_t& v) override { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t) override {
    if (!value(json::object())) return false;
    open_.push_back(last_);
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!depth_ok()) return false;
    if (!keys_.back().insert(k).second) return stop(JsonProblem::kDuplicateKey, k);
    slot_ = &(*open_.back())[k];
    return true;
  }
  bool end_object() override {
    open_.pop_back();
    keys_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    if (!value(json::array())) return false;
    open_.push_back(last_);
    keys_.emplace_back();  // unused: keeps keys_ beside open_
    return true;
  }
  bool end_array() override {
    open_.pop_back();
    keys_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    return stop(JsonProblem::kSyntax, e.what());
  }

 private:
  bool depth_ok() { return static_cast<int>(open_.size()) <= max_depth_ || stop(JsonProblem::kTooDeep, ""); }

  // Puts `v` where it belongs: the root, the end of the open array, or
  // the open object's member whose key came last.
  template <class V>
  bool value(V&& v) {
    if (!depth_ok()) return false;
    if (open_.empty()) {
      root_ = json(std::forward<V>(v));
      last_ = &root_;
    } else if (open_.back()->is_array()) {
      open_.back()->emplace_back(std::forward<V>(v));
      last_ = &open_.back()->back();
    } else {
      *slot_ = json(std::forward<V>(v));
      last_ = slot_;
    }
    return true;
  }

  bool stop(JsonProblem::Kind kind, std::string detail) {
    problem_.kind = kind;
    problem_.detail = std::move(detail);
    return false;
  }

  const int max_depth_;
  JsonProblem& problem_;
  json root_;
  std::vector<json*> open_;  // the open arrays and objects, outermost first
  std::vector<std::set<std::string>> keys_;  // the keys seen in each
  json* slot_ = nullptr;  // the member the last key named
  json* last_ = nullptr;  // the value stored last
};

}  // namespace

json parse_strict_json(std::string_view text, int max_depth, JsonProblem& problem) {
  problem = {};
  StrictBuilder builder(max_depth, problem);
  const bool ok = json::sax_parse(text.begin(), text.end(), &builder);
  if (!ok && problem.kind == JsonProblem::kNone) problem = {JsonProblem::kSyntax, "the parser stopped"};
  return ok ? builder.take() : json();
}

}  // namespace lockstep::vectors
