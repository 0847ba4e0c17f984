#include "cipher_check.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "catalog.h"
#include "crash/crash_report.h"
#include "oracle/oracle.h"
#include "run_support.h"

namespace lockstep::fuzz {
namespace {

struct Expected {
  std::string who;
  Bytes value;
  uint32_t counter_after = 0;
};

Expected expected_for(const Program& p, const catalog::CipherAlgorithm& a) {
  Expected e;
  const uint64_t blocks = (p.message.size() + 63) / 64;
  e.counter_after = static_cast<uint32_t>(p.counter + blocks);
  constexpr oracle::Source kSource = oracle::Source::kCryptoppSimd;
  const bool x = a.nonce_size == 24;  // XChaCha20
  if (oracle::available(kSource) &&
      (x ? oracle::supports_xchacha20(kSource) : oracle::supports_chacha(kSource, a.rounds))) {
    e.who = std::string(oracle::source_name(kSource));
    e.value = x ? oracle::xchacha20(kSource, p.key, p.nonce, p.counter, p.message)
                : oracle::chacha(kSource, a.rounds, p.key, p.counter, p.nonce, p.message);
    return e;
  }
  // No oracle in this build: generic stands in, checked against it natively.
  const Backend* generic = a.family->backends().back();
  e.who = std::string(generic->name);
  e.value.resize(p.message.size());
  uint32_t state[16];
  a.init(state, p.key.data(), p.counter, p.nonce.data());
  a.crypt(state, e.value.data(), p.message.data(), p.message.size(), generic);
  return e;
}

// within_contract: dst lies against src as `b` declared its crypt allows
// (module.h's chacha_overlap); a case outside it is conformance's to report.
bool within_contract(const catalog::CipherAlgorithm& a, const Backend& b, bool separate, size_t shift) {
  if (separate) return true;
  const lockstep_chacha_overlap declared = a.overlap(&b);
  return shift == 0 ? declared != LOCKSTEP_OVERLAP_NONE : declared == LOCKSTEP_OVERLAP_ANY;
}

// runs_here: the CPU has what `b` needs, and `b` does `a`'s round count
// (module backends may declare only some).
bool runs_here(const catalog::CipherAlgorithm& a, const Backend& b) {
  return runs_on(b) && b.serves(a.name) && a.unsupported(&b).empty();
}

[[noreturn]] void report(const Program& p, const catalog::CipherAlgorithm& a, const Backend& b,
                         const std::string& what, const Bytes& got, const Expected& e) {
  print_signature(p, b);
  std::string msg = fmt::format("\ncheck:     {}\n", what);
  msg += fmt::format("backend:   {} -> {}\n", b.name, hex(got));
  msg += fmt::format("oracle:    {} -> {}\n", e.who, hex(e.value));
  msg += "program:\n" + p.describe();
  std::vector<oracle::Opinion> votes;
  if (oracle::available(oracle::Source::kCryptoppSimd))
    votes = a.nonce_size == 24 ? oracle::xchacha20_opinions(p.key, p.nonce, p.counter, p.message)
                               : oracle::chacha_opinions(a.rounds, p.key, p.counter, p.nonce, p.message);
  for (const Backend* other : a.family->backends()) {
    if (!other->usable(cpu::effective()) || !a.unsupported(other).empty()) continue;
    Bytes v(p.message.size());
    uint32_t state[16];
    a.init(state, p.key.data(), p.counter, p.nonce.data());
    a.crypt(state, v.data(), p.message.data(), p.message.size(), other);
    votes.push_back({std::string(other->name), v});
  }
  msg += "vote (one call, same input):\n  " + oracle::tally(votes).to_string() + "\n";
  msg += "cpu:\n" + cpu::report();
  std::fputs(msg.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace

void check_cipher_program(const Program& p) {
  const catalog::CipherAlgorithm* a = catalog::find_cipher(p.algorithm);
  if (!a || p.key.size() != 32 || p.nonce.size() != a->nonce_size) {
    std::fprintf(stderr, "lockstep: malformed cipher program for %s\n", p.algorithm.c_str());
    std::abort();
  }
  const Expected e = expected_for(p, *a);
  const size_t len = p.message.size();
  // dst below src by up to 64 bytes, or in place, or apart (program.h).
  const size_t shift = p.overlap == Overlap::kOverInputStart ? p.out_offset % 65 : 0;
  const bool separate = p.overlap == Overlap::kSeparate;
  // Exactly sized: the input ends at its block's end, and so does the output.
  const HeapBuffer input(shift + p.in_offset + len), output(p.out_offset + len);

  const bool wraps = p.counter + (uint64_t{len} + 63) / 64 >= (uint64_t{1} << 32);
  const std::string program = p.describe();
  for (const Backend* b : a->family->backends()) {
    if (!runs_here(*a, *b)) continue;
    const crash::CaseNote note(std::string(b->name) + " running " + program);
    // The oracle answers with the RFC 8439 wrap; a module backend that
    // declared OpenSSL EVP's carry is held to it by conformance's CounterWrap.
    if (wraps && a->carries(b)) continue;
    if (!within_contract(*a, *b, separate, shift)) continue;
    uint8_t* src = input.get() + shift + p.in_offset;
    uint8_t* dst = separate ? output.get() + p.out_offset : src - shift;
    if (len) std::memcpy(src, p.message.data(), len);

    uint32_t state[16];
    a->init(state, p.key.data(), p.counter, p.nonce.data());
    size_t done = 0;
    for (const size_t n : p.splits) {
      const size_t take = std::min(n, len - done);
      a->crypt(state, dst + done, src + done, take, b);
      done += take;
    }
    a->crypt(state, dst + done, src + done, len - done, b);

    if (len && std::memcmp(dst, e.value.data(), len) != 0)
      report(p, *a, *b, "output", Bytes(dst, dst + len), e);
    if (state[12] != e.counter_after)
      report(p, *a, *b,
             fmt::format("counter after the calls: {}, want {}", state[12], e.counter_after),
             Bytes(dst, dst + len), e);
    uint32_t fresh[16];
    a->init(fresh, p.key.data(), p.counter, p.nonce.data());
    if (std::memcmp(state + 13, fresh + 13, 12) != 0)
      report(p, *a, *b, "the nonce words changed (a carry out of the counter?)",
             Bytes(dst, dst + len), e);
  }
}

}  // namespace lockstep::fuzz
