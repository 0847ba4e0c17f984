// Wycheproof's ChaCha files as keystream tests:
//  - AeadTest groups of (x)chacha20_poly1305_test.json: a valid test's ct is
//    msg XOR the keystream from block 1 (RFC 8439, 2.8; XChaCha20 the same
//    under its subkey and inner nonce). The tag needs Poly1305, which
//    lockstep lacks, so a test that only the tag decides is skipped.
//  - StreamCipherTest groups (stream_cipher_test_schema_v1.json): a key, an
//    IV and an initialCounter of counterSize bits, little-endian.
#include "chacha_layout.h"
#include "wycheproof_file.h"

namespace lockstep::vectors::import::detail {
namespace {

constexpr std::string_view kTagDecides = "the Poly1305 tag decides it (lockstep has no Poly1305)";

// Where Wycheproof expects a 32-bit counter to stop, lockstep's wraps.
constexpr std::string_view kWrapNotApplicable =
    "not applicable: Wycheproof expects rejection at the end of the 32-bit counter, which "
    "wraps as RFC 8439's counter does in the kernel's chacha_crypt()";
constexpr std::string_view kInvalid64 =
    "invalid: rejection at the end of a 64-bit counter (lockstep's counter is RFC 8439's 32 bits)";
constexpr std::string_view kInvalidNoWrap =
    "invalid, but the 32-bit counter does not wrap: nothing says what must fail";

std::string bytes_text(size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

// check_size fails unless `value` has `bits` bits, as its group says.
void check_size(const Where& w, const Bytes& value, std::string_view field, uint64_t bits,
                std::string_view group_field) {
  if (value.size() * 8 == bits) return;
  w.fail(field, "has " + bytes_text(value.size()) + ", " + std::string(group_field) + " is " +
                    std::to_string(bits) + " bits");
}

uint64_t little_endian(const Bytes& b) {
  uint64_t v = 0;
  for (size_t i = b.size(); i-- > 0;) v = v << 8 | b[i];
  return v;
}

}  // namespace

void read_aead_group(WycheproofFile& f, const json& group, size_t g, std::string_view cipher) {
  Where& w = f.w;
  only_fields(group, {"type", "source", "ivSize", "keySize", "tagSize", "tests"}, w);
  const uint64_t iv_bits = uint_field(group, "ivSize", w);
  const uint64_t key_bits = uint_field(group, "keySize", w);
  const uint64_t tag_bits = uint_field(group, "tagSize", w);
  const size_t nonce_size = cipher == "xchacha20" ? 24 : 12;
  const json& tests = array_field(group, "tests", w);
  for (size_t i = 0; i < tests.size(); ++i) {
    w.at("testGroups[" + std::to_string(g) + "]");
    const json& t = tests[i];
    const uint64_t id = f.begin_test(t, g, i);
    only_fields(t, {"tcId", "comment", "flags", "key", "iv", "aad", "msg", "ct", "tag", "result"}, w);
    const Expect expect = f.result(t);
    Bytes key = hex_field(t, "key", w), iv = hex_field(t, "iv", w);
    (void)hex_field(t, "aad", w);
    Bytes msg = hex_field(t, "msg", w), ct = hex_field(t, "ct", w);
    const Bytes tag = hex_field(t, "tag", w);
    // A test that may decrypt must be what its group says.
    if (expect != Expect::kMismatch) {
      check_size(w, key, "key", key_bits, "keySize");
      check_size(w, iv, "iv", iv_bits, "ivSize");
      check_size(w, tag, "tag", tag_bits, "tagSize");
      if (ct.size() != msg.size())
        w.fail("ct", "has " + bytes_text(ct.size()) + ", msg has " + std::to_string(msg.size()));
    }
    if (iv.size() != nonce_size && expect == Expect::kMismatch) {
      // A test of the AEAD's argument checks: lockstep's nonce is a
      // fixed-size array, no size to refuse. One reason per file.
      f.skip_test(id, "invalid: a nonce of another size than " + std::to_string(nonce_size) + " bytes, which " +
                          f.out.algorithm + " must refuse (lockstep's nonce size is fixed by its type)");
    } else if (iv.size() != nonce_size) {
      f.skip_test(id, "nonce size not " + std::to_string(nonce_size) + " bytes (" + f.out.algorithm + ")");
    } else if (key.size() != 32) {
      f.skip_test(id, "key of " + std::to_string(key.size() * 8) + " bits (lockstep's ChaCha takes 256)");
    } else if (expect != Expect::kMatch) {
      f.skip_test(id, std::string(expect == Expect::kMismatch ? "invalid" : "acceptable") + ": " +
                          std::string(kTagDecides));
    } else {
      Case c;
      c.id = "tcId " + std::to_string(id);
      c.algorithm = f.out.algorithm;  // place() names the cipher if it runs
      place(Keystream{std::string(cipher), Layout::kIetf, std::move(key), std::move(iv), 1, 0,
                      std::move(msg), std::move(ct)},
            c);
      f.out.cases.push_back(std::move(c));
    }
  }
}

void read_stream_group(WycheproofFile& f, const json& group, size_t g) {
  Where& w = f.w;
  only_fields(group, {"type", "source", "algorithm", "keySize", "ivSize", "counterSize", "tests"}, w);
  const std::string alg = string_field(group, "algorithm", w);
  const uint64_t key_bits = uint_field(group, "keySize", w);
  const uint64_t iv_bits = uint_field(group, "ivSize", w);
  const uint64_t counter_bits = uint_field(group, "counterSize", w);
  if (counter_bits != 32 && counter_bits != 64)
    w.fail("counterSize", std::to_string(counter_bits) + " bits, expected 32 or 64");
  const Layout layout = counter_bits == 32 ? Layout::kIetf : Layout::kOriginal;

  // ChaCha20 with RFC 8439's nonce and counter or Bernstein's, XChaCha20
  // with either counter.
  std::string cipher, why;
  if (alg == "XChaCha20") cipher = "xchacha20";
  else if (alg == "ChaCha20" || alg == "ChaCha20-IETF") cipher = "chacha20";
  else why = alg + ": not an algorithm of lockstep";
  const uint64_t want_iv = cipher == "xchacha20" ? 192 : layout == Layout::kIetf ? 96 : 64;
  if (why.empty() && iv_bits != want_iv)
    why = alg + " with a " + std::to_string(iv_bits) + "-bit IV and a " + std::to_string(counter_bits) +
          "-bit counter: not a ChaCha layout lockstep knows";
  else if (why.empty() && key_bits != 256)
    why = "key of " + std::to_string(key_bits) + " bits (lockstep's ChaCha takes 256)";

  const json& tests = array_field(group, "tests", w);
  for (size_t i = 0; i < tests.size(); ++i) {
    w.at("testGroups[" + std::to_string(g) + "]");
    const json& t = tests[i];
    const uint64_t id = f.begin_test(t, g, i);
    only_fields(t, {"tcId", "comment", "flags", "key", "iv", "initialCounter", "msg", "ct", "result"}, w);
    const Expect expect = f.result(t);
    Bytes key = hex_field(t, "key", w), iv = hex_field(t, "iv", w);
    const Bytes counter = hex_field(t, "initialCounter", w);
    Bytes msg = hex_field(t, "msg", w);
    check_size(w, key, "key", key_bits, "keySize");
    check_size(w, iv, "iv", iv_bits, "ivSize");
    check_size(w, counter, "initialCounter", counter_bits, "counterSize");
    // ct is left out of invalid tests, and of valid ones with an empty msg.
    Bytes ct;
    if (t.contains("ct")) {
      ct = hex_field(t, "ct", w);
      if (ct.size() != msg.size())
        w.fail("ct", "has " + bytes_text(ct.size()) + ", msg has " + std::to_string(msg.size()));
    } else if (expect == Expect::kMatch && !msg.empty()) {
      w.fail("ct", "missing in a valid test");
    }
    if (!why.empty()) {
      f.skip_test(id, why);
      continue;
    }
    Keystream k{cipher, layout, std::move(key), std::move(iv), little_endian(counter), 0,
                std::move(msg), std::move(ct)};
    if (expect == Expect::kMatch) {
      Case c;
      c.id = "tcId " + std::to_string(id);
      c.algorithm = f.out.algorithm;  // place() names the cipher if it runs
      place(std::move(k), c);
      f.out.cases.push_back(std::move(c));
    } else if (expect == Expect::kEither) {
      f.skip_test(id, "acceptable: either outcome passes");
    } else if (layout == Layout::kOriginal) {
      f.skip_test(id, std::string(kInvalid64));
    } else {
      f.skip_test(id, std::string(wraps32(k) ? kWrapNotApplicable : kInvalidNoWrap));
    }
  }
}

}  // namespace lockstep::vectors::import::detail
