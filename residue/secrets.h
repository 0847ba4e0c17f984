// residue::Secrets: the values a call must not leave behind (key bytes,
// keystream, message words, message-schedule words), as 8-byte fragments,
// and a search for them in memory the call left.
//
// Eight bytes is the unit: long enough that the pattern, pointers, return
// addresses and saved registers never match by chance (2^-64 per place),
// short enough to catch a single spilled 64-bit word or a pair of 32-bit
// words. Fragments are taken at every 4-byte step of a secret, so a spill
// of any two neighbouring 32-bit words matches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lockstep::residue {

class Secrets {
 public:
  // add_bytes: every 8 bytes of `bytes` at a 4-byte step, as they are in
  // memory. `what` names them in findings: "keystream block 2".
  void add_bytes(const std::string& what, std::span<const std::uint8_t> bytes);
  // add_words32: 32-bit words as a register or an array holds them (host
  // order), each neighbouring pair in both orders (SIMD code keeps some
  // words in descending lanes).
  void add_words32(const std::string& what, std::span<const std::uint32_t> words);
  // add_words64: 64-bit words, each on its own.
  void add_words64(const std::string& what, std::span<const std::uint64_t> words);
  // add_public_*: values that are no secret however they arise, as the
  // same fragments: the round constants K, which W[t] + K[t] equals
  // wherever the padding makes W[t] zero. A public fragment never counts,
  // whether it was added before or after.
  void add_public_words32(std::span<const std::uint32_t> words);
  void add_public_words64(std::span<const std::uint64_t> words);
  std::size_t size() const { return fragments_.size(); }

  struct Hit {
    std::size_t offset;  // into the memory searched
    std::string what;    // "keystream block 2, bytes 8..15"
  };
  // find lists each place in `memory`, at a 4-byte step, that holds one of
  // the fragments; at most `limit` of them.
  std::vector<Hit> find(std::span<const std::uint8_t> memory, std::size_t limit = 8) const;

 private:
  void add(std::uint64_t fragment, std::string what);
  std::unordered_map<std::uint64_t, std::string> fragments_;
  std::unordered_set<std::uint64_t> public_;
};

}  // namespace lockstep::residue
