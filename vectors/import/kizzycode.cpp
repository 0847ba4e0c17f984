// The JSON test files of KizzyCode/crypto_api_chachapoly (tests/*.json):
// "crypto" known answers, "error" inputs that must not decrypt, and "api"
// tests of that crate's interface (wrong lengths, small buffers). An entry's
// fields say what it tests:
//  - key, nonce, ad, plaintext, ciphertext: (X)ChaCha20-Poly1305, the
//    ciphertext followed by the 16-byte tag; the ciphertext is the plaintext
//    XOR the keystream from block 1 (RFC 8439, 2.8);
//  - key, nonce, ciphertext, optional plaintext (absent: zeros): the
//    keystream from block 0, ChaCha20 (12-byte nonce) or libsodium's
//    XChaCha20 (24 bytes);
//  - key, data, mac: Poly1305.
#include <algorithm>

#include "chacha_layout.h"
#include "reader_util.h"

namespace lockstep::vectors::import {
namespace {

using namespace detail;

class KizzycodeReader {
 public:
  explicit KizzycodeReader(const std::string& name) : w_(name) { out_.name = name; }
  ImportedFile read(std::string_view text);

 private:
  void entry(const json& e, const std::string& id, bool must_fail);
  void name_kind(const std::string& kind);

  Where w_;
  ImportedFile out_;
  std::vector<std::string> kinds_;  // what the entries test, in order of appearance
};

void KizzycodeReader::name_kind(const std::string& kind) {
  if (std::find(kinds_.begin(), kinds_.end(), kind) != kinds_.end()) return;
  kinds_.push_back(kind);
  out_.algorithm += (out_.algorithm.empty() ? "" : ", ") + kind;
}

void KizzycodeReader::entry(const json& e, const std::string& id, bool must_fail) {
  w_.at(id);
  if (!e.is_object()) w_.fail_here("an entry must be an object");
  only_fields(e, {"name", "key", "nonce", "ad", "plaintext", "ciphertext", "data", "mac"}, w_);
  (void)string_field(e, "name", w_);
  Case c;
  c.id = id;
  if (e.contains("mac") || e.contains("data")) {
    (void)hex_field(e, "key", w_), (void)hex_field(e, "data", w_), (void)hex_field(e, "mac", w_);
    name_kind("Poly1305");
    c.algorithm = "Poly1305";
    c.skip = "Poly1305: not an algorithm of lockstep";
    out_.cases.push_back(std::move(c));
    return;
  }
  Bytes key = hex_field(e, "key", w_), nonce = hex_field(e, "nonce", w_);
  Bytes ct = hex_field(e, "ciphertext", w_);
  const bool aead = e.contains("ad");
  if (aead) (void)hex_field(e, "ad", w_);
  const std::string cipher = nonce.size() == 24 ? "xchacha20" : "chacha20";
  const std::string kind = std::string(nonce.size() == 24 ? "XChaCha20" : "ChaCha20") + (aead ? "-Poly1305" : "");
  name_kind(kind);
  c.algorithm = kind;
  if (must_fail) {
    c.skip = aead ? "invalid: the Poly1305 tag decides it (lockstep has no Poly1305)"
                  : "an error case without a tag: nothing says what must fail";
    out_.cases.push_back(std::move(c));
    return;
  }
  Bytes pt;
  if (aead) {
    pt = hex_field(e, "plaintext", w_);
    if (ct.size() != pt.size() + kPoly1305TagSize)
      w_.fail("ciphertext", "has " + std::to_string(ct.size()) + " bytes, expected the plaintext's " +
                                std::to_string(pt.size()) + " and a 16-byte tag");
    ct.resize(pt.size());
  } else {
    pt = e.contains("plaintext") ? hex_field(e, "plaintext", w_) : Bytes(ct.size(), 0);
    if (ct.size() != pt.size())
      w_.fail("ciphertext", "has " + std::to_string(ct.size()) + " bytes, plaintext has " +
                                std::to_string(pt.size()));
  }
  if (key.size() != 32) {
    c.skip = "key of " + std::to_string(key.size() * 8) + " bits (lockstep's ChaCha takes 256)";
  } else if (nonce.size() != 12 && nonce.size() != 24) {
    c.skip = "nonce size " + std::to_string(nonce.size()) + " (lockstep takes 12 or 24 bytes)";
  } else {
    // libsodium's XChaCha20 is the original layout from block 0, which
    // place() maps to lockstep's as long as the counter stays below 2^32.
    const Layout layout = nonce.size() == 24 ? Layout::kOriginal : Layout::kIetf;
    place(Keystream{cipher, layout, std::move(key), std::move(nonce), aead ? 1u : 0u, 0, std::move(pt),
                    std::move(ct)},
          c);
  }
  out_.cases.push_back(std::move(c));
}

ImportedFile KizzycodeReader::read(std::string_view text) {
  out_.format = Format::kKizzycode;
  const json doc = parse_json(text, w_);
  if (!doc.is_object()) w_.fail("(document)", "must be a JSON object");
  only_fields(doc, {"crypto", "error", "api"}, w_);
  const json& crypto = array_field(doc, "crypto", w_);
  for (size_t i = 0; i < crypto.size(); ++i) entry(crypto[i], "crypto[" + std::to_string(i) + "]", false);
  if (doc.contains("error")) {
    const json& errors = array_field(doc, "error", w_);
    for (size_t i = 0; i < errors.size(); ++i) entry(errors[i], "error[" + std::to_string(i) + "]", true);
  }
  if (doc.contains("api")) {
    w_.at("api");
    const json& api = object_field(doc, "api", w_);
    only_fields(api, {"defaults", "tests"}, w_);
    const json& tests = array_field(api, "tests", w_);
    for (size_t i = 0; i < tests.size(); ++i) {
      const std::string id = "api.tests[" + std::to_string(i) + "]";
      w_.at(id);
      if (!tests[i].is_object()) w_.fail_here("a test must be an object");
      (void)string_field(tests[i], "name", w_);
      Case c;
      c.id = id;
      c.algorithm = out_.algorithm;
      c.skip = "a test of the crate's API (lengths and buffers), not of the algorithm";
      out_.cases.push_back(std::move(c));
    }
  }
  if (out_.algorithm.empty()) out_.algorithm = "(no entries)";
  return std::move(out_);
}

}  // namespace

ImportedFile read_kizzycode(std::string_view text, const std::string& name) {
  return KizzycodeReader(name).read(text);
}

}  // namespace lockstep::vectors::import
