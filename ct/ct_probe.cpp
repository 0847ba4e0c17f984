// ct_probe: the calls the ct column runs under Valgrind's memcheck, in the
// spirit of ctgrind and BoringSSL's constant-time validation. The secrets
// (key, nonce, HMAC key, message) are marked undefined before each call,
// so memcheck reports every branch and every memory index that depends on
// them ("Conditional jump or move depends on uninitialised value(s)", "Use
// of uninitialised value of size 8"). What comes out is marked defined
// again: a digest or ciphertext is public.
//
//   valgrind --tool=memcheck ct_probe sha256 sha256/x86-avx2
//   valgrind --tool=memcheck ct_probe chacha20 chacha/x86-avx2
//
// Exit status: 0 the calls ran; 77 the backend cannot run on the CPU
// Valgrind shows (its needs are named on stderr); 2 a usage error.
#include <valgrind/memcheck.h>

#include <cstdio>
#include <string>
#include <vector>

#include "catalog.h"
#include "cpu/cpu.h"

namespace {

using lockstep::Backend;
namespace catalog = lockstep::catalog;

constexpr size_t kLengths[] = {1, 55, 64, 200, 1000};

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 31 * i + (i >> 3));
  return v;
}

void secret(std::vector<uint8_t>& v) { VALGRIND_MAKE_MEM_UNDEFINED(v.data(), v.size()); }
void public_(std::vector<uint8_t>& v) { VALGRIND_MAKE_MEM_DEFINED(v.data(), v.size()); }

void hash_calls(const catalog::HashAlgorithm& alg, const Backend* b) {
  for (const size_t len : kLengths) {
    std::vector<uint8_t> msg = pattern(len, 1), other = pattern(len, 2), key = pattern(alg.block_size + 3, 3);
    std::vector<uint8_t> out(alg.digest_size), out2(alg.digest_size);
    secret(msg), secret(other), secret(key);
    alg.digest(msg.data(), len, out.data(), b);
    public_(out);
    // An HMAC key of a block or less, and one that is hashed first.
    alg.hmac(key.data(), 13, msg.data(), len, out.data(), b);
    public_(out);
    alg.hmac(key.data(), key.size(), msg.data(), len, out.data(), b);
    public_(out);
    if (alg.finup_2x != nullptr) {
      alg.finup_2x(nullptr, msg.data(), other.data(), len, out.data(), out2.data(), b);
      public_(out), public_(out2);
    }
  }
}

void cipher_calls(const catalog::CipherAlgorithm& alg, const Backend* b) {
  for (const size_t len : kLengths) {
    std::vector<uint8_t> key = pattern(32, 4), nonce = pattern(alg.nonce_size, 5), msg = pattern(len, 6);
    std::vector<uint8_t> out(len);
    secret(key), secret(nonce), secret(msg);
    uint32_t state[16];
    alg.init(state, key.data(), 7, nonce.data());
    // The block counter is public: the front end and the backends may
    // branch on it (the 2^32 wrap).
    VALGRIND_MAKE_MEM_DEFINED(&state[12], sizeof state[12]);
    alg.crypt(state, out.data(), msg.data(), len, b);
    public_(out);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s ALGORITHM BACKEND (e.g. sha256 sha256/x86-avx2)\n", argv[0]);
    return 2;
  }
  const std::string alg = argv[1], name = argv[2];
  const Backend* b = catalog::find_backend(name);
  if (b == nullptr) {
    std::fprintf(stderr, "%s: no backend named '%s' (lockstep list names them)\n", argv[0], name.c_str());
    return 2;
  }
  if (!b->usable(lockstep::cpu::effective())) {
    std::fprintf(stderr, "%s: %s needs %s, which this CPU (as Valgrind shows it) lacks\n", argv[0], name.c_str(),
                 b->needs.to_string().c_str());
    return 77;
  }
  if (const catalog::HashAlgorithm* h = catalog::find_hash(alg)) {
    hash_calls(*h, b);
  } else if (const catalog::CipherAlgorithm* c = catalog::find_cipher(alg)) {
    if (!c->unsupported(b).empty()) return 77;
    cipher_calls(*c, b);
  } else {
    std::fprintf(stderr, "%s: no algorithm named '%s'\n", argv[0], alg.c_str());
    return 2;
  }
  return 0;
}
