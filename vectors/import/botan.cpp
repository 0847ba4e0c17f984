// Botan's text vectors (src/tests/data/*.vec): "[Algorithm]" sections of
// "Name = value" lines. As in Botan's Text_Based_Test, a test is complete at
// its output field, "Out" in every file read here:
//  - stream/chacha.vec: Key, Out; optional In (default: zeros), Nonce
//    (default: 8 zero bytes) and Seek (a byte position in the keystream);
//  - aead/chacha20poly1305.vec: Key, Nonce, In, Out (the ciphertext and the
//    16-byte tag), optional AD; the ciphertext is In XOR the keystream from
//    block 1 (RFC 8439, 2.8), which is what lockstep checks;
//  - mac/hmac.vec: Key, In, Out;
//  - hash/sha2_32.vec, hash/sha2_64.vec: In, Out.
// Sections of other algorithms are counted, test by test, as skipped. A file
// without a section header is ChaCha20Poly1305 when its name says so (the
// libsodium files of webmaster128/xchacha20poly1305-testvectors).
#include <cctype>
#include <filesystem>

#include "chacha_layout.h"
#include "reader_util.h"

namespace lockstep::vectors::import {
namespace {

using namespace detail;

enum class Schema { kStream, kAead, kMac, kHash, kOther };

struct Section {
  std::string header;
  Schema schema = Schema::kOther;
  std::string hash;  // kMac, kHash: catalog hash
  int rounds = 0;    // kStream
  std::string skip;  // for every test of the section
};

std::string catalog_hash(std::string_view botan) {
  if (botan == "SHA-224") return "sha224";
  if (botan == "SHA-256") return "sha256";
  if (botan == "SHA-384") return "sha384";
  if (botan == "SHA-512") return "sha512";
  if (botan == "SHA-512-224") return "sha512-224";
  if (botan == "SHA-512-256") return "sha512-256";
  return "";
}

std::string why_not(std::string_view botan_hash) {
  if (botan_hash.rfind("SHA-512-", 0) == 0) return "SHA-512/t for other t: lockstep has t = 224 and 256";
  return "not an algorithm of lockstep";
}

Section classify(std::string_view header) {
  Section s;
  s.header = std::string(header);
  if (header.empty()) {
    s.skip = "tests before any [algorithm] header";
    return s;
  }
  auto inner = [&](std::string_view prefix) -> std::optional<std::string_view> {
    if (header.size() < prefix.size() + 1 || header.substr(0, prefix.size()) != prefix ||
        header.back() != ')')
      return std::nullopt;
    return header.substr(prefix.size(), header.size() - prefix.size() - 1);
  };
  if (const auto rounds = inner("ChaCha(")) {
    s.schema = Schema::kStream;
    const auto n = parse_u64(*rounds);
    s.rounds = n && *n <= 64 ? static_cast<int>(*n) : 0;
    if (s.rounds != 20 && s.rounds != 12)
      s.skip = s.header + ": lockstep has ChaCha20 and ChaCha12";
    return s;
  }
  if (const auto hash = inner("HMAC(")) {
    s.schema = Schema::kMac;
    s.hash = catalog_hash(*hash);
    if (s.hash.empty()) s.skip = s.header + ": " + why_not(*hash);
    return s;
  }
  if (header == "ChaCha20Poly1305") {
    s.schema = Schema::kAead;
    return s;
  }
  if (header.rfind("SHA-", 0) == 0 && header.find('(') == std::string_view::npos) {
    s.schema = Schema::kHash;
    s.hash = catalog_hash(header);
    if (s.hash.empty()) s.skip = s.header + ": " + why_not(header);
    return s;
  }
  s.skip = s.header + ": not an algorithm of lockstep";
  return s;
}

struct Field {
  std::string_view name;
  std::string_view value;
  size_t line;
};

// headerless is the section of tests before any header: ChaCha20Poly1305
// for a file named like one, else nothing lockstep reads.
Section headerless(const std::string& name) {
  std::string file = std::filesystem::path(name).filename().string();
  for (char& ch : file) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (file.find("chacha20poly1305") != std::string::npos) return classify("ChaCha20Poly1305");
  return classify("");
}

class BotanReader {
 public:
  explicit BotanReader(const std::string& name) : w_(name), section_(headerless(name)) { out_.name = name; }
  ImportedFile read(std::string_view text);

 private:
  void field(const Field& f);
  void finish();  // the test so far, at a section end or the end of the file
  void complete();
  const Field* get(std::string_view name) const;
  Bytes hex_of(std::string_view name) const;
  void stream(Case& c);
  void aead(Case& c);
  void add(Case c);

  Where w_;
  ImportedFile out_;
  Section section_;
  std::vector<Field> test_;
};

const Field* BotanReader::get(std::string_view name) const {
  for (const Field& f : test_)
    if (f.name == name) return &f;
  return nullptr;
}

Bytes BotanReader::hex_of(std::string_view name) const {
  const Field* f = get(name);
  if (!f) w_.fail(name, "missing");
  return hex(f->value, name, w_);
}

void BotanReader::add(Case c) {
  c.id = "line " + std::to_string(test_.front().line);
  if (c.algorithm.empty()) c.algorithm = section_.header;
  if (!section_.skip.empty()) {
    c.skip = section_.skip;
    c.body = std::monostate();
  }
  out_.cases.push_back(std::move(c));
  test_.clear();
}

void BotanReader::stream(Case& c) {
  const Bytes key = hex_of("Key");
  const Bytes out = hex_of("Out");
  Bytes in = get("In") ? hex_of("In") : Bytes();
  // Botan encrypts zeros when In is absent or empty: Out is the keystream.
  if (in.empty()) in.assign(out.size(), 0);
  if (in.size() != out.size())
    w_.fail("In", "has " + std::to_string(in.size()) + " bytes, Out has " + std::to_string(out.size()));
  // Botan's ChaCha starts with an 8-byte zero nonce until one is set.
  const Bytes nonce = get("Nonce") ? hex_of("Nonce") : Bytes(8, 0);
  uint64_t offset = 0;
  if (const Field* s = get("Seek")) {
    const auto n = parse_u64(s->value);
    if (!n) w_.fail("Seek", "not a byte position (a decimal number)");
    offset = *n;
  }
  if (key.size() != 32 && key.size() != 16)
    w_.fail("Key", "has " + std::to_string(key.size()) + " bytes, expected 16 or 32");
  if (nonce.size() != 8 && nonce.size() != 12 && nonce.size() != 24)
    w_.fail("Nonce", "has " + std::to_string(nonce.size()) + " bytes, expected 8, 12 or 24");
  if (!section_.skip.empty()) return;

  if (key.size() == 16) {
    c.skip = "128-bit key: lockstep's ChaCha takes 256-bit keys";
  } else if (nonce.size() == 24 && section_.rounds != 20) {
    c.skip = "XChaCha" + std::to_string(section_.rounds) + ": lockstep has XChaCha20 only";
  } else {
    // Botan's ChaCha keeps Bernstein's 64-bit counter for 8-byte nonces and
    // under XChaCha20's subkey; a 12-byte nonce is RFC 8439's layout.
    const std::string cipher = nonce.size() == 24 ? "xchacha20" : section_.rounds == 20 ? "chacha20" : "chacha12";
    place(Keystream{cipher, nonce.size() == 12 ? Layout::kIetf : Layout::kOriginal, key, nonce, offset / 64,
                    offset % 64, std::move(in), out},
          c);
  }
}

void BotanReader::aead(Case& c) {
  const Bytes key = hex_of("Key"), nonce = hex_of("Nonce");
  if (get("AD")) (void)hex_of("AD");
  Bytes in = get("In") ? hex_of("In") : Bytes();
  Bytes out = hex_of("Out");
  if (out.size() != in.size() + kPoly1305TagSize)
    w_.fail("Out", "has " + std::to_string(out.size()) + " bytes, expected In's " + std::to_string(in.size()) +
                       " and a 16-byte tag");
  if (key.size() != 32) w_.fail("Key", "has " + std::to_string(key.size()) + " bytes, expected 32");
  if (nonce.size() != 8 && nonce.size() != 12 && nonce.size() != 24) {
    c.skip = "nonce size " + std::to_string(nonce.size()) + " (RFC 8439 takes 12 bytes, XChaCha20 24, draft-agl 8)";
    return;
  }
  out.resize(in.size());  // the tag needs Poly1305, which lockstep lacks
  // Botan's 8-byte nonce is draft-agl's construction: Bernstein's layout,
  // the message from 64-bit block 1 on, as RFC 8439's from block 1.
  place(Keystream{nonce.size() == 24 ? "xchacha20" : "chacha20", nonce.size() == 8 ? Layout::kOriginal : Layout::kIetf,
                  key, nonce, 1, 0, std::move(in), std::move(out)},
        c);
}

void BotanReader::complete() {
  w_.at("line " + std::to_string(test_.front().line));
  Case c;
  switch (section_.schema) {
    case Schema::kStream:
      stream(c);
      break;
    case Schema::kAead:
      aead(c);
      break;
    case Schema::kMac: {
      MacCase m;
      m.key = hex_of("Key");
      m.msg = hex_of("In");
      m.tag = hex_of("Out");
      m.mac_len = m.tag.size();
      if (section_.skip.empty()) {
        if (m.tag.size() != digest_size(section_.hash))
          w_.fail("Out", "has " + std::to_string(m.tag.size()) + " bytes, expected " +
                             std::to_string(digest_size(section_.hash)));
        c.algorithm = "hmac-" + section_.hash;
        c.body = std::move(m);
      }
      break;
    }
    case Schema::kHash: {
      HashCase h{hex_of("In"), hex_of("Out")};
      if (section_.skip.empty()) {
        if (h.md.size() != digest_size(section_.hash))
          w_.fail("Out", "has " + std::to_string(h.md.size()) + " bytes, expected " +
                             std::to_string(digest_size(section_.hash)));
        c.algorithm = section_.hash;
        c.body = std::move(h);
      }
      break;
    }
    case Schema::kOther:
      break;
  }
  add(std::move(c));
}

void BotanReader::field(const Field& f) {
  auto allowed = [&](std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
      if (n == f.name) return true;
    return false;
  };
  bool known = true;
  switch (section_.schema) {
    case Schema::kStream: known = allowed({"Key", "Out", "In", "Nonce", "Seek"}); break;
    case Schema::kAead: known = allowed({"Key", "Nonce", "AD", "In", "Out"}); break;
    case Schema::kMac: known = allowed({"Key", "In", "Out"}); break;
    case Schema::kHash: known = allowed({"In", "Out"}); break;
    case Schema::kOther: break;
  }
  if (get(f.name)) {
    // Outside the schemas read here the output field may have another
    // name; a repeated field then starts the next test.
    if (section_.schema == Schema::kOther) {
      add(Case{});
    } else {
      w_.at("line " + std::to_string(test_.front().line));
      w_.fail(f.name, "twice in one test (line " + std::to_string(f.line) + "; Out missing?)");
    }
  }
  if (!known) {
    w_.at("line " + std::to_string(test_.empty() ? f.line : test_.front().line));
    w_.fail(f.name, "unknown field in a [" + section_.header + "] test");
  }
  test_.push_back(f);
  if (f.name == "Out") {
    if (section_.schema == Schema::kOther) add(Case{});
    else complete();
  }
}

void BotanReader::finish() {
  if (test_.empty()) return;
  if (section_.schema == Schema::kOther) {
    add(Case{});
    return;
  }
  w_.at("line " + std::to_string(test_.front().line));
  w_.fail("Out", "missing: the test ends without it");
}

ImportedFile BotanReader::read(std::string_view text) {
  out_.format = Format::kBotan;
  bool seen_header = false;
  for (const Line& l : split_lines(text)) {
    if (l.text.empty() || l.text[0] == '#') continue;
    if (l.text[0] != '[' && !seen_header && out_.algorithm.empty())
      out_.algorithm = section_.schema == Schema::kAead ? "ChaCha20Poly1305 (no section header; by the file name)"
                                                        : "(no section header)";
    if (l.text[0] == '[') {
      seen_header = true;
      finish();
      w_.at("line " + std::to_string(l.number));
      if (l.text.size() < 3 || l.text.back() != ']') w_.fail_here("expected a section header [Algorithm]");
      section_ = classify(l.text.substr(1, l.text.size() - 2));
      if (!out_.algorithm.empty()) out_.algorithm += ", ";
      out_.algorithm += section_.header;
      continue;
    }
    const auto a = assignment(l.text);
    if (!a || a->name.empty()) {
      w_.at("line " + std::to_string(l.number));
      w_.fail_here("expected 'Name = value'");
    }
    field({a->name, a->value, l.number});
  }
  finish();
  if (out_.algorithm.empty()) out_.algorithm = "(no section header)";
  return std::move(out_);
}

}  // namespace

ImportedFile read_botan(std::string_view text, const std::string& name) {
  return BotanReader(name).read(text);
}

}  // namespace lockstep::vectors::import
