#include "secrets.h"

#include <cstring>
#include <string>

#include "stack.h"

namespace lockstep::residue {
namespace {

std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint64_t pair(std::uint32_t low, std::uint32_t high) {
  return static_cast<std::uint64_t>(high) << 32 | low;  // as memory holds low then high
}

}  // namespace

void Secrets::add(std::uint64_t fragment, std::string what) {
  // Values that fill memory anyway prove nothing: zeros, the pattern.
  std::uint64_t fill;
  std::memset(&fill, kPattern, sizeof fill);
  if (fragment == 0 || fragment == fill || fragment == ~std::uint64_t{0}) return;
  fragments_.emplace(fragment, std::move(what));
}

void Secrets::add_public_words32(std::span<const std::uint32_t> words) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    public_.insert(pair(words[i], words[i + 1]));
    public_.insert(pair(words[i + 1], words[i]));
  }
}

void Secrets::add_public_words64(std::span<const std::uint64_t> words) {
  public_.insert(words.begin(), words.end());
}

void Secrets::add_bytes(const std::string& what, std::span<const std::uint8_t> bytes) {
  for (std::size_t i = 0; i + 8 <= bytes.size(); i += 4)
    add(load64(bytes.data() + i), what + ", bytes " + std::to_string(i) + ".." + std::to_string(i + 7));
}

void Secrets::add_words32(const std::string& what, std::span<const std::uint32_t> words) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    add(pair(words[i], words[i + 1]), what + ", words " + std::to_string(i) + ".." + std::to_string(i + 1));
    add(pair(words[i + 1], words[i]), what + ", words " + std::to_string(i) + ".." + std::to_string(i + 1) + " (descending)");
  }
}

void Secrets::add_words64(const std::string& what, std::span<const std::uint64_t> words) {
  for (std::size_t i = 0; i < words.size(); ++i) add(words[i], what + ", word " + std::to_string(i));
}

std::vector<Secrets::Hit> Secrets::find(std::span<const std::uint8_t> memory, std::size_t limit) const {
  std::vector<Hit> hits;
  if (fragments_.empty()) return hits;
  for (std::size_t at = 0; at + 8 <= memory.size() && hits.size() < limit; at += 4) {
    const std::uint64_t v = load64(memory.data() + at);
    const auto it = fragments_.find(v);
    if (it != fragments_.end() && !public_.contains(v)) hits.push_back({at, it->second});
  }
  return hits;
}

}  // namespace lockstep::residue
