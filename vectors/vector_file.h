// Vector files: JSON in the Wycheproof style, one schema per kind, strictly
// validated on load. See vectors/README.md for the schemas.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lockstep::vectors {

using Bytes = std::vector<uint8_t>;

// VectorError is a malformed file. what() names the file, the tcId (when the
// problem is inside a test) and the field: "sha256/fips180.json: tcId 3:
// field 'md': odd number of hex digits".
class VectorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Result as in Wycheproof: "valid" tests must reproduce the expected value,
// "invalid" ones must not (for MACs: a wrong tag that must not verify).
enum class Result { kValid, kInvalid, kAcceptable };

struct TestCommon {
  int tc_id = 0;
  std::string comment;
  std::vector<std::string> flags;
  Result result = Result::kValid;
};

// schema "lockstep-hash-v1": msg -> md.
struct HashTest : TestCommon {
  Bytes msg;  // descriptors ({"pattern","repeat"}, {"kernelData": n}) expanded
  Bytes md;
};

// schema "lockstep-hmac-v1": key, msg -> tag (tag may be truncated: compare
// the first tag.size() bytes).
struct HmacTest : TestCommon {
  Bytes key;
  Bytes msg;
  Bytes tag;
};

// schema "lockstep-finup2x-v1": a shared prefix, then two equal-length
// messages finished together.
struct Finup2xTest : TestCommon {
  Bytes prefix;
  Bytes data1, data2;
  Bytes md1, md2;
};

// schema "lockstep-chacha-v1" (ChaCha20, ChaCha12, XChaCha20): the RFC 8439
// layout; ct = msg XOR the keystream from block `counter` (32-bit, wrapping
// at 2^32 without carry into the nonce).
struct ChachaTest : TestCommon {
  Bytes key;    // 32 bytes
  Bytes nonce;  // 12 bytes (24 for XChaCha20)
  uint32_t counter = 0;
  Bytes msg;
  Bytes ct;
};

// schema "lockstep-hchacha-v1" (HChaCha20): key, 16-byte nonce -> subkey.
struct HChachaTest : TestCommon {
  Bytes key;
  Bytes nonce;
  Bytes subkey;
};

// The kernel's consolidated values (lib/crypto/tests/*-testvecs.h), in hash
// and hmac files as a group of type "KernelConsolidated":
//  - hash files: md = H(concat over L=0..max_len of H(kernelData(max_len)[:L]))
//  - hmac files: tag = the kernel's hmac_testvec_consolidated rule
struct ConsolidatedTest : TestCommon {
  size_t max_len = 4096;
  Bytes value;
};

struct VectorFile {
  std::filesystem::path path;
  std::string algorithm;  // "SHA-256", "HMAC-SHA256", ... as in the file
  std::string schema;     // "lockstep-hash-v1", ...
  std::vector<HashTest> hash;
  std::vector<HmacTest> hmac;
  std::vector<Finup2xTest> finup_2x;
  std::vector<ConsolidatedTest> consolidated;
  std::vector<ChachaTest> chacha;
  std::vector<HChachaTest> hchacha;
  size_t size() const {
    return hash.size() + hmac.size() + finup_2x.size() + consolidated.size() + chacha.size() +
           hchacha.size();
  }
};

// load reads and validates one file; throws VectorError.
VectorFile load(const std::filesystem::path& path);

// load_from_string parses text as if it came from `name` (for the fuzzer).
VectorFile load_from_string(const std::string& text, const std::filesystem::path& name);

// Descriptors of one file may expand to at most kMaxExpandedBytes in total,
// so that a small file cannot ask for an unbounded allocation. A fuzz
// harness with a tighter memory limit passes its own `max_expanded_bytes`.
inline constexpr uint64_t kMaxExpandedBytes = uint64_t{1} << 30;
VectorFile load_from_string(const std::string& text, const std::filesystem::path& name,
                            uint64_t max_expanded_bytes);

// The directory of lockstep's own vector files (vectors/data in the source
// tree, configured at build time).
std::filesystem::path data_dir();

// files lists the *.json files under `dir`, sorted, recursively.
std::vector<std::filesystem::path> files(const std::filesystem::path& dir);

// The algorithm names of lockstep's catalog ("sha256", "hmac-sha256",
// "chacha20", ...) for a file's "algorithm" field ("SHA-256", "HMAC-SHA256",
// "ChaCha20", ...). An unknown
// name throws std::invalid_argument.
std::string catalog_name(const std::string& algorithm);

// kernel_data returns the kernel's deterministic test data of length `len`:
// 48-bit LCG seeded with len, seed = seed * 25214903917 + 11 mod 2^48, each
// byte (seed >> 16) & 0xff (scripts/crypto/gen-hash-testvecs.py).
Bytes kernel_data(size_t len);

}  // namespace lockstep::vectors
