// CAVP SHA response files (shabytetestvectors: SHA*ShortMsg.rsp,
// SHA*LongMsg.rsp, SHA*Monte.rsp): "[L = n]" sections (n: digest bytes),
// Len in bits with the dummy "Msg = 00" for Len = 0, CRLF line ends, and the
// Monte Carlo test as Seed followed by COUNT/MD checkpoints (SHAVS 6.4).
#include <filesystem>

#include "reader_util.h"

namespace lockstep::vectors::import {
namespace {

using namespace detail;

struct Sha {
  std::string_view cavp;  // as in the header comment
  std::string_view stem;  // as in the file name
  std::string_view hash;  // catalog hash, "" when lockstep lacks it
  size_t size;
  std::string_view why;
};

// Longer stems first: "SHA512_224" before "SHA512".
constexpr Sha kShas[] = {
    {"SHA-512/224", "SHA512_224", "sha512-224", 28, ""},
    {"SHA-512/256", "SHA512_256", "sha512-256", 32, ""},
    {"SHA-224", "SHA224", "sha224", 28, ""},
    {"SHA-256", "SHA256", "sha256", 32, ""},
    {"SHA-384", "SHA384", "sha384", 48, ""},
    {"SHA-512", "SHA512", "sha512", 64, ""},
    {"SHA-1", "SHA1", "", 20, "lockstep has no SHA-1"},
};

constexpr size_t kCheckpoints = 100;

// algorithm reads the header comment ('#  "SHA-256 ShortMsg" information'),
// or failing that the file name, since [L = 32] alone could be SHA-256 or
// SHA-512/256.
const Sha* algorithm(const std::vector<Line>& lines, const std::string& name, std::string& named) {
  for (const Line& l : lines) {
    if (l.text.empty() || l.text[0] != '#') continue;
    const size_t at = l.text.find("\"SHA-");
    if (at == std::string_view::npos) continue;
    std::string_view rest = l.text.substr(at + 1);
    rest = rest.substr(0, rest.find_first_of(" \""));
    named = std::string(rest);
    for (const Sha& s : kShas)
      if (s.cavp == rest) return &s;
    return nullptr;
  }
  const std::string file = std::filesystem::path(name).filename().string();
  for (const Sha& s : kShas) {
    if (file.rfind(s.stem, 0) != 0) continue;
    named = std::string(s.cavp);
    return &s;
  }
  return nullptr;
}

class CavpReader {
 public:
  explicit CavpReader(const std::string& name) : w_(name) { out_.name = name; }
  ImportedFile read(std::string_view text);

 private:
  void line(const Line& l);
  void finish_monte();
  void add(Case c);

  Where w_;
  ImportedFile out_;
  const Sha* sha_ = nullptr;
  std::string skip_;  // for every case, when lockstep lacks the algorithm
  size_t section_len_ = 0;  // the current [L = n]; 0 before the first

  // A ShortMsg/LongMsg test being read: Len, then Msg, then MD.
  struct Test {
    size_t line = 0;
    uint64_t bits = 0;
    bool has_msg = false;
    Bytes msg;
  };
  std::optional<Test> test_;

  // A Monte Carlo test: Seed, then COUNT/MD pairs.
  std::optional<MonteCase> monte_;
  size_t monte_line_ = 0;
  bool count_open_ = false;  // a COUNT waits for its MD
};

void CavpReader::add(Case c) {
  c.algorithm = sha_ ? (sha_->hash.empty() ? std::string(sha_->cavp) : std::string(sha_->hash))
                     : out_.algorithm;
  if (!skip_.empty()) {
    c.skip = skip_;
    c.body = std::monostate();
  }
  out_.cases.push_back(std::move(c));
}

void CavpReader::finish_monte() {
  if (!monte_) return;
  w_.at("line " + std::to_string(monte_line_));
  if (count_open_) w_.fail("MD", "missing after the last COUNT");
  if (monte_->checkpoints.empty()) w_.fail("COUNT", "Seed without any COUNT and MD");
  Case c;
  c.id = "line " + std::to_string(monte_line_);
  c.body = std::move(*monte_);
  monte_.reset();
  add(std::move(c));
}

void CavpReader::line(const Line& l) {
  if (l.text.empty() || l.text[0] == '#') return;
  const std::string here = "line " + std::to_string(l.number);
  if (l.text[0] == '[') {
    w_.at(here);
    if (test_) w_.fail_here("a section starts inside a test (Len without Msg and MD)");
    finish_monte();
    w_.at(here);
    const auto a = assignment(l.text.substr(1, l.text.size() - 1 - (l.text.back() == ']')));
    if (l.text.back() != ']' || !a || a->name != "L")
      w_.fail_here("expected a section header [L = n]");
    const auto n = parse_u64(a->value);
    if (!n) w_.fail("L", "not a number");
    if (sha_ && *n != sha_->size)
      w_.fail("L", std::to_string(*n) + " bytes, but " + std::string(sha_->cavp) + " digests have " +
                       std::to_string(sha_->size));
    if (*n == 0 || *n > 64) w_.fail("L", "must be 1..64 bytes");
    section_len_ = static_cast<size_t>(*n);
    return;
  }
  const auto a = assignment(l.text);
  w_.at(test_ ? "line " + std::to_string(test_->line) : here);
  if (!a) w_.fail_here("expected 'name = value'");
  if (!section_len_)
    w_.fail(a->name, "before any [L = n] section");

  if (a->name == "Len") {
    if (test_) w_.fail("Len", "a new test starts before this one has Msg and MD");
    if (monte_) w_.fail("Len", "inside a Monte Carlo test");
    w_.at(here);
    const auto bits = parse_u64(a->value);
    if (!bits) w_.fail("Len", "not a number");
    test_ = Test{l.number, *bits, false, {}};
  } else if (a->name == "Msg") {
    if (!test_) w_.fail("Msg", "without a Len before it");
    if (test_->has_msg) w_.fail("Msg", "twice in one test");
    test_->msg = hex(a->value, "Msg", w_);
    test_->has_msg = true;
  } else if (a->name == "MD") {
    if (test_) {
      if (!test_->has_msg) w_.fail("Msg", "missing before MD");
      Case c;
      c.id = "line " + std::to_string(test_->line);
      const Bytes md = hex(a->value, "MD", w_);
      if (md.size() != section_len_)
        w_.fail("MD", "has " + std::to_string(md.size()) + " bytes, expected " +
                          std::to_string(section_len_));
      const uint64_t bits = test_->bits;
      Bytes msg = std::move(test_->msg);
      test_.reset();
      if (bits % 8) {
        c.skip = "bit-oriented message; lockstep hashes bytes";
      } else {
        // Len = 0 comes with the placeholder "Msg = 00".
        if (bits == 0 && msg.size() == 1 && msg[0] == 0) msg.clear();
        if (msg.size() != bits / 8)
          w_.fail("Msg", "has " + std::to_string(msg.size()) + " bytes, Len says " +
                             std::to_string(bits) + " bits");
        c.body = HashCase{std::move(msg), md};
      }
      add(std::move(c));
    } else if (monte_ && count_open_) {
      w_.at("line " + std::to_string(monte_line_));
      const Bytes md = hex(a->value, "MD", w_);
      if (md.size() != section_len_)
        w_.fail("MD", "COUNT " + std::to_string(monte_->checkpoints.size()) + ": has " +
                          std::to_string(md.size()) + " bytes, expected " +
                          std::to_string(section_len_));
      monte_->checkpoints.push_back(md);
      count_open_ = false;
    } else {
      w_.fail("MD", "without Len and Msg or COUNT before it");
    }
  } else if (a->name == "Seed") {
    if (test_) w_.fail("Seed", "inside a test (Len without Msg and MD)");
    finish_monte();
    w_.at(here);
    MonteCase m;
    m.seed = hex(a->value, "Seed", w_);
    if (m.seed.size() != section_len_)
      w_.fail("Seed", "has " + std::to_string(m.seed.size()) + " bytes, expected " +
                          std::to_string(section_len_));
    m.label = "COUNT";
    monte_ = std::move(m);
    monte_line_ = l.number;
  } else if (a->name == "COUNT") {
    if (!monte_) w_.fail("COUNT", "without a Seed before it");
    w_.at("line " + std::to_string(monte_line_));
    if (count_open_) w_.fail("MD", "missing after COUNT " + std::to_string(monte_->checkpoints.size()));
    const auto n = parse_u64(a->value);
    if (!n || *n != monte_->checkpoints.size())
      w_.fail("COUNT", "is " + std::string(a->value) + " at line " + std::to_string(l.number) +
                           ", expected " + std::to_string(monte_->checkpoints.size()));
    if (*n >= kCheckpoints) w_.fail("COUNT", "more than " + std::to_string(kCheckpoints) + " checkpoints");
    count_open_ = true;
  } else {
    w_.fail(a->name, "unknown field");
  }
}

ImportedFile CavpReader::read(std::string_view text) {
  out_.format = Format::kCavp;
  const std::vector<Line> lines = split_lines(text);
  sha_ = algorithm(lines, out_.name, out_.algorithm);
  if (!sha_ && out_.algorithm.empty())
    w_.fail_here("cannot tell the algorithm: no \"SHA-...\" header comment, and the file name "
                 "does not start with SHA<n>");
  if (!sha_) skip_ = out_.algorithm + ": not an algorithm of lockstep";
  else if (sha_->hash.empty()) skip_ = out_.algorithm + ": " + std::string(sha_->why);
  for (const Line& l : lines) line(l);
  if (test_) {
    w_.at("line " + std::to_string(test_->line));
    w_.fail("MD", "missing at the end of the file");
  }
  finish_monte();
  return std::move(out_);
}

}  // namespace

ImportedFile read_cavp(std::string_view text, const std::string& name) {
  return CavpReader(name).read(text);
}

}  // namespace lockstep::vectors::import
