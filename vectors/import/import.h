// Importers for upstream vector files: Wycheproof JSON, ACVP JSON, CAVP .rsp,
// Botan .vec and KizzyCode's JSON; and lockstep's own schemas (vector_file.h), so that vectors
// a user writes in them run the same way. Each reader turns its format into
// one format-independent list of cases, which conformance/vector_runner.h
// runs against any backend through the catalog. Readers depend on nothing but
// the text: they neither run code under test nor allocate more than a small
// multiple of the input (an ACVP large-data message is a pattern and a
// length, never expanded), so the vector fuzzer drives them directly.
//
// A case lockstep cannot run (an algorithm it lacks, a bit-oriented message)
// is still a case: it carries the reason in `skip`, so that every upstream
// test is counted and none is dropped silently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "vectors/vector_file.h"

namespace lockstep::vectors::import {

// ImportError is a malformed upstream file. Like VectorError, which it is,
// what() names the file, the test and the field:
//   "hmac_sha256_test.json: tcId 3: field 'tag': odd number of hex digits"
//   "SHA256ShortMsg.rsp: line 12: field 'MD': has 31 bytes, expected 32"
class ImportError : public VectorError {
 public:
  using VectorError::VectorError;
};

enum class Format { kWycheproof, kAcvp, kCavp, kBotan, kKizzycode, kLockstep };
// "Wycheproof", "ACVP", "CAVP", "Botan", "KizzyCode", "lockstep"
std::string_view format_name(Format f);

// A check's expectation, from Wycheproof's result (and lockstep's, which is
// the same): "valid" must verify, "invalid" must not, "acceptable" may go
// either way.
enum class Expect { kMatch, kMismatch, kEither };

// msg -> md.
struct HashCase {
  Bytes msg;
  Bytes md;
  Expect expect = Expect::kMatch;
};

// ACVP's large-data test: `content` repeated, the last copy cut short, up to
// `total` bytes. The runner streams it; nothing ever holds `total` bytes.
struct LargeHashCase {
  Bytes content;
  uint64_t total = 0;
  Bytes md;
};

// The SHA-2 Monte Carlo test (CAVP SHAVS 6.4, ACVP "standard"): per
// checkpoint j, A = B = C = seed, then 1000 times MD = H(A || B || C),
// A = B, B = C, C = MD; checkpoint j is the last MD, which seeds j + 1.
// ACVP's "alternate" version (msg_len > 0) cuts or zero-extends every
// A || B || C to msg_len bytes, the length of the first seed.
struct MonteCase {
  Bytes seed;
  size_t msg_len = 0;  // 0: standard
  std::vector<Bytes> checkpoints;
  std::string label;  // what a checkpoint is called upstream: "COUNT", "resultsArray"
};

// key, msg -> tag: the MAC cut to mac_len bytes (truncated MACs) verifies
// when it equals tag. A tag of another length never verifies.
struct MacCase {
  Bytes key;
  Bytes msg;
  Bytes tag;
  size_t mac_len = 0;
  Expect expect = Expect::kMatch;
};

// A ChaCha keystream test on lockstep's RFC 8439 layout: out = in XOR
// keystream[offset, offset + len). `offset` is a byte position (Botan's
// Seek): block offset / 64, and the first offset % 64 bytes of that block
// are discarded. An AEAD's ciphertext starts at block 1 (offset 64); other
// layouts are mapped here by the readers (import/chacha_layout.h).
struct StreamCase {
  Bytes key;    // 32 bytes
  Bytes nonce;  // 12 bytes (24 for xchacha20)
  uint64_t offset = 0;
  Bytes in;
  Bytes out;
  Expect expect = Expect::kMatch;
};

// The kernel's consolidated value (vector_file.h, ConsolidatedTest): for a
// hash algorithm H(H(d[:0]) || ... || H(d[:max_len])), for an HMAC one the
// kernel's hmac_testvec_consolidated rule, with d = kernel_data(max_len).
struct ConsolidatedCase {
  size_t max_len = 0;
  Bytes value;
  Expect expect = Expect::kMatch;
};

// SHA-256's finup_2x: a context that has absorbed `prefix`, finished with
// data1 and data2 (equal lengths) at once.
struct Finup2xCase {
  Bytes prefix, data1, data2;
  Bytes md1, md2;
  Expect expect = Expect::kMatch;
};

// HChaCha20: key, 16-byte nonce -> subkey. It has one implementation (the
// front end's), so every ChaCha backend gives the same answer.
struct HChachaCase {
  Bytes key, nonce, subkey;
  Expect expect = Expect::kMatch;
};

using Body = std::variant<std::monostate, HashCase, LargeHashCase, MonteCase, MacCase, StreamCase,
                          ConsolidatedCase, Finup2xCase, HChachaCase>;

struct Case {
  std::string id;         // the test in its file: "tcId 5", "tgId 2 tcId 513", "line 142"
  std::string algorithm;  // catalog name ("sha256", "hmac-sha384", "chacha20", "xchacha20", "hchacha20"), or upstream's when unsupported
  std::string skip;       // non-empty: why lockstep cannot run this case (body then unset)
  Body body;
};

struct ImportedFile {
  std::string name;       // as shown in every message
  Format format = Format::kWycheproof;
  std::string algorithm;  // upstream's own name(s) for what the file tests
  std::vector<Case> cases;
};

// The readers. `name` is what messages call the file.
ImportedFile read_wycheproof(std::string_view text, const std::string& name);
// ACVP: a prompt and its expected results (two files), or one
// internalProjection.json, which holds both.
ImportedFile read_acvp(std::string_view prompt, const std::string& prompt_name,
                       std::string_view expected, const std::string& expected_name);
ImportedFile read_acvp_projection(std::string_view text, const std::string& name);
ImportedFile read_cavp(std::string_view text, const std::string& name);
// Botan: `name` also decides a file without section headers (libsodium's
// XChaCha20-Poly1305 files in Botan's format).
ImportedFile read_botan(std::string_view text, const std::string& name);
// KizzyCode/crypto_api_chachapoly's tests/*.json.
ImportedFile read_kizzycode(std::string_view text, const std::string& name);
// lockstep's own schemas (lockstep-hash-v1, -hmac-v1, -finup2x-v1,
// -chacha-v1, -hchacha-v1), validated by vectors::load_from_string: an
// unknown lockstep-* schema is an error naming the file and the field.
ImportedFile read_lockstep(std::string_view text, const std::string& name);

// What a file on disk is, from its extension and its content.
enum class Kind {
  kWycheproof,
  kAcvpPrompt,
  kAcvpExpected,
  kAcvpProjection,
  kCavp,
  kBotan,
  kKizzycode,
  kLockstep,
  kIgnored,  // `why` says what it is instead
};
struct Detected {
  Kind kind = Kind::kIgnored;
  std::string why;
};

// wants_content: whether detect() needs the file's text (only .json, .rsp
// and .vec files are read at all).
bool wants_content(const std::filesystem::path& path);
Detected detect(const std::filesystem::path& path, std::string_view text);

}  // namespace lockstep::vectors::import
