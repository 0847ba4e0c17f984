#include "backend_contract.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace lockstep::cli {
namespace {

const char* overlap_name(lockstep_chacha_overlap o) {
  switch (o) {
    case LOCKSTEP_OVERLAP_ANY: return "equal or below";
    case LOCKSTEP_OVERLAP_INPLACE: return "equal only";
    case LOCKSTEP_OVERLAP_NONE: return "none";
  }
  return "unknown";
}

// The family's algorithms `b` serves, hashes, ciphers and derivations.
std::vector<std::string> served(const catalog::Family& f, const Backend& b) {
  std::vector<std::string> names;
  auto add = [&](std::string_view name) {
    if (b.serves(name)) names.emplace_back(name);
  };
  for (const catalog::HashAlgorithm* h : f.hashes) add(h->name);
  for (const catalog::CipherAlgorithm* c : f.ciphers) add(c->name);
  for (const catalog::SubkeyAlgorithm* s : f.subkeys) add(s->name);
  return names;
}

void add_hash_terms(const catalog::Family& f, const Backend& b, nlohmann::json& c) {
  for (const catalog::HashAlgorithm* h : f.hashes)
    if (h->finup_2x_is_optimized != nullptr && b.serves(h->name)) {
      c["finup_2x"] = h->finup_2x_is_optimized(&b) ? "2-way" : "one message after the other";
      return;
    }
}

void add_cipher_terms(const catalog::Family& f, const Backend& b, nlohmann::json& c) {
  if (f.ciphers.empty()) return;
  const catalog::CipherAlgorithm& any = *f.ciphers.front();
  c["counter"] = any.carries(&b) ? "carries into word 13" : "wraps at 2^32";
  c["overlap"] = overlap_name(any.overlap(&b));
  nlohmann::json unsupported = nlohmann::json::object();
  for (const catalog::CipherAlgorithm* cipher : f.ciphers)
    if (const std::string why = cipher->unsupported(&b); !why.empty()) unsupported[cipher->name] = why;
  if (!unsupported.empty()) c["unsupported"] = unsupported;
}

}  // namespace

nlohmann::json backend_contract(const catalog::Family& family, const Backend& b) {
  nlohmann::json c = {
      {"wipes", b.wipes},
      {"algorithms", served(family, b)},
      {"max_call_bytes", b.max_call_bytes},
      {"same_code_as", b.same_code_as},
  };
  add_hash_terms(family, b, c);
  add_cipher_terms(family, b, c);
  return c;
}

std::string contract_text(const nlohmann::json& c) {
  std::vector<std::string> terms;
  terms.push_back(c["wipes"].get<bool>() ? "wipes what it handled" : "promises no wipe");
  terms.push_back(fmt::format("{}", fmt::join(c["algorithms"].get<std::vector<std::string>>(), " ")));
  const size_t max = c["max_call_bytes"].get<size_t>();
  terms.push_back(max == 0 ? "whole length per call" : fmt::format("at most {} bytes per call", max));
  if (const std::string same = c["same_code_as"].get<std::string>(); !same.empty())
    terms.push_back("same code as " + same);
  if (c.contains("finup_2x")) terms.push_back("finup_2x " + c["finup_2x"].get<std::string>());
  if (c.contains("counter")) terms.push_back("counter " + c["counter"].get<std::string>());
  if (c.contains("overlap")) terms.push_back("dst against src: " + c["overlap"].get<std::string>());
  // Named, not iterated as a temporary: items() keeps only a reference.
  const nlohmann::json unsupported = c.value("unsupported", nlohmann::json::object());
  for (const auto& [cipher, why] : unsupported.items())
    terms.push_back(fmt::format("no {}: {}", cipher, why.get<std::string>()));
  return fmt::format("{}", fmt::join(terms, "; "));
}

}  // namespace lockstep::cli
