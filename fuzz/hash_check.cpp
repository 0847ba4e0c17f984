#include "hash_check.h"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "catalog.h"
#include "crash/crash_report.h"
#include "oracle/oracle.h"
#include "run_support.h"
#include "sha2/length_reference.h"

namespace lockstep::fuzz {
namespace {

// prefix || data2: the second message of a finup_2x program.
Bytes second_message(const Program& p) {
  Bytes m(p.message.begin(), p.message.begin() + static_cast<ptrdiff_t>(p.prefix_len));
  m.insert(m.end(), p.data2.begin(), p.data2.end());
  return m;
}

// The memory a program runs in, exactly sized so that ASan sees a byte
// read or written past any buffer; allocated once, shared by every backend.
struct Arena {
  Arena(const Program& p, const catalog::HashAlgorithm& a)
      : input(p.in_offset + p.message.size()),
        data2(p.out_offset + p.data2.size()),
        out(p.out_offset + (p.op == Operation::kFinup2x ? 2 : 1) * a.digest_size),
        ctx(p.ctx_offset + (p.op == Operation::kHmac ? a.hmac_ctx_size : a.ctx_size)),
        key(a.hmac_key_size),
        raw_key(p.key.size()) {}
  HeapBuffer input, data2, out, ctx, key, raw_key;
};

// One comparison: `what` names the check in the report; `second` says the
// answer is for finup_2x's second message.
struct Check {
  std::string_view what;
  bool second = false;
  std::string_view who = {};  // what `want` comes from, when not the oracle
};

// Checker compares each answer with the oracle's as soon as it is produced
// (no copies on the hot path) and reports the first mismatch.
class Checker {
 public:
  Checker(const Program& p, const catalog::HashAlgorithm& a, const Expected& e)
      : p_(p), a_(a), e_(e) {}

  void answer(const Backend& b, Check c, const uint8_t* got) const {
    const Bytes& want = c.second ? e_.value2 : e_.value1;
    if (std::memcmp(got, want.data(), a_.digest_size) != 0)
      report(b, c, Bytes(got, got + a_.digest_size), &want);
  }

  // finup_2x must leave the prefix context exactly as it was.
  void ctx_unchanged(const Backend& b, bool unchanged) const {
    if (!unchanged) report(b, {"finup_2x modified its ctx argument"}, {}, nullptr);
  }

  // An answer compared with another path's, not the oracle's.
  void same(const Backend& b, Check c, const uint8_t* got, const uint8_t* want) const {
    if (std::memcmp(got, want, a_.digest_size) != 0) {
      const Bytes w(want, want + a_.digest_size);
      report(b, c, Bytes(got, got + a_.digest_size), &w);
    }
  }

 private:
  [[noreturn]] void report(const Backend& b, Check c, const Bytes& got, const Bytes* want) const;

  const Program& p_;
  const catalog::HashAlgorithm& a_;
  const Expected& e_;
};

// Feeds `data` to `update` in the program's split sizes, then the rest.
template <class Update>
void feed(const Program& p, const uint8_t* data, size_t len, Update update) {
  size_t used = 0;
  for (size_t n : p.splits) {
    const size_t take = std::min(n, len - used);
    update(data + used, take);
    used += take;
  }
  update(data + used, len - used);
}

// The output buffer for a digest of `ds` bytes over an input at `in` of
// `len` bytes, as the program's overlap mode says.
uint8_t* output_for(const Program& p, uint8_t* in, size_t len, size_t ds, const HeapBuffer& separate) {
  if (p.overlap == Overlap::kOverInputStart && len >= ds) return in;
  if (p.overlap == Overlap::kOverInputEnd && len >= ds) return in + len - ds;
  return separate.get() + p.out_offset;
}

void run_digest(const Program& p, const catalog::HashAlgorithm& a, const Backend& b,
                const Arena& m, const Checker& check) {
  const size_t len = p.message.size(), ds = a.digest_size;
  uint8_t* in = m.input.get() + p.in_offset;
  void* ctx = m.ctx.get() + p.ctx_offset;

  if (len) std::memcpy(in, p.message.data(), len);
  a.init(ctx, &b);
  feed(p, in, len, [&](const uint8_t* d, size_t n) { a.update(ctx, d, n); });
  uint8_t* o = output_for(p, in, len, ds, m.out);
  a.final(ctx, o);
  check.answer(b, {"incremental"}, o);

  if (len) std::memcpy(in, p.message.data(), len);
  o = output_for(p, in, len, ds, m.out);
  a.digest(in, len, o, &b);
  check.answer(b, {"one-shot"}, o);

  // The same message after a byte count no input reaches: past 2^32 (a
  // 32-bit count) and near 2^61: past it for SHA-512 (its length field
  // gets a high word), below it for SHA-256, whose messages are shorter
  // than 2^61 bytes (FIPS 180-4; beyond it nothing is defined to check).
  // The oracles cannot be given a count: padding written out by hand answers.
  const uint64_t kFar = a.block_size == 64 ? (uint64_t{1} << 61) - (uint64_t{1} << 38)   // whole blocks
                                           : (uint64_t{1} << 61) + (uint64_t{1} << 38);
  uint8_t seeded[256];  // every hash context is smaller
  if (a.ctx_size > sizeof seeded) std::abort();
  a.init(ctx, &b);
  std::memcpy(static_cast<uint8_t*>(ctx) + a.bytecount_offset, &kFar, sizeof kFar);
  std::memcpy(seeded, ctx, a.ctx_size);
  if (len) std::memcpy(in, p.message.data(), len);
  feed(p, in, len, [&](const uint8_t* d, size_t n) { a.update(ctx, d, n); });
  o = output_for(p, in, len, ds, m.out);
  a.final(ctx, o);
  const std::vector<uint8_t> want = sha2::finish_at_count(a, seeded, kFar, p.message);
  check.same(b, {a.block_size == 64 ? "incremental, byte count seeded to 2^61 - 2^38" : "incremental, byte count seeded to 2^61 + 2^38", false, "padding by hand (impl/sha2/length_reference.h)"},
             o, want.data());
}

void run_hmac(const Program& p, const catalog::HashAlgorithm& a, const Backend& b,
              const Arena& m, const Checker& check) {
  const size_t len = p.message.size(), ds = a.digest_size;
  uint8_t* in = m.input.get() + p.in_offset;
  void* ctx = m.ctx.get() + p.ctx_offset;
  const uint8_t* raw = m.raw_key.get();
  if (!p.key.empty()) std::memcpy(m.raw_key.get(), p.key.data(), p.key.size());

  if (len) std::memcpy(in, p.message.data(), len);
  a.hmac_prepare_key(m.key.get(), raw, p.key.size(), &b);
  a.hmac_init(ctx, m.key.get(), &b);
  feed(p, in, len, [&](const uint8_t* d, size_t n) { a.hmac_update(ctx, d, n); });
  uint8_t* o = output_for(p, in, len, ds, m.out);
  a.hmac_final(ctx, o);
  check.answer(b, {"hmac, prepared key, incremental"}, o);

  if (len) std::memcpy(in, p.message.data(), len);
  a.hmac_init_usingrawkey(ctx, raw, p.key.size(), &b);
  feed(p, in, len, [&](const uint8_t* d, size_t n) { a.hmac_update(ctx, d, n); });
  o = output_for(p, in, len, ds, m.out);
  a.hmac_final(ctx, o);
  check.answer(b, {"hmac, raw key, incremental"}, o);

  if (len) std::memcpy(in, p.message.data(), len);
  o = output_for(p, in, len, ds, m.out);
  a.hmac(raw, p.key.size(), in, len, o, &b);
  check.answer(b, {"hmac, raw key, one-shot"}, o);
}

void run_finup_2x(const Program& p, const catalog::HashAlgorithm& a, const Backend& b,
                  const Arena& m, const Checker& check) {
  const size_t n = p.message.size() - p.prefix_len, ds = a.digest_size;
  uint8_t* in = m.input.get() + p.in_offset;
  uint8_t* d1 = in + p.prefix_len;
  uint8_t* d2 = m.data2.get() + p.out_offset;
  void* ctx = m.ctx.get() + p.ctx_offset;
  auto load_inputs = [&] {
    if (!p.message.empty()) std::memcpy(in, p.message.data(), p.message.size());
    if (n) std::memcpy(d2, p.data2.data(), n);
  };
  // Outputs over the inputs where asked: the backend must read before it writes.
  uint8_t* o1 = m.out.get() + p.out_offset;
  uint8_t* o2 = o1 + ds;
  if (p.overlap == Overlap::kOverInputStart && n >= ds) o1 = d1, o2 = d2;
  if (p.overlap == Overlap::kOverInputEnd && n >= ds) o1 = d1 + n - ds, o2 = d2 + n - ds;

  load_inputs();
  a.init(ctx, &b);
  feed(p, in, p.prefix_len, [&](const uint8_t* d, size_t k) { a.update(ctx, d, k); });
  uint8_t before[256];  // every hash context is smaller
  if (a.ctx_size > sizeof before) std::abort();
  std::memcpy(before, ctx, a.ctx_size);
  a.finup_2x(ctx, d1, d2, n, o1, o2, nullptr);
  check.answer(b, {"finup_2x, first"}, o1);
  check.answer(b, {"finup_2x, second", true}, o2);
  check.ctx_unchanged(b, std::memcmp(before, ctx, a.ctx_size) == 0);

  if (a.finup_2x_is_optimized(&b)) {
    // A 2-way path pads for itself: the same context, as if 2^38 bytes more
    // had gone before it (the buffered tail is unchanged), must give what
    // update() and final() give, whose 64-bit count conformance checks.
    alignas(16) uint8_t far[sizeof before], work[sizeof before];
    uint8_t got[2][64], want[2][64];
    std::memcpy(far, before, a.ctx_size);
    uint64_t count;
    std::memcpy(&count, far + a.bytecount_offset, sizeof count);
    count += uint64_t{1} << 38;
    std::memcpy(far + a.bytecount_offset, &count, sizeof count);
    load_inputs();
    a.finup_2x(far, d1, d2, n, got[0], got[1], nullptr);
    for (int j = 0; j < 2; ++j) {
      std::memcpy(work, far, a.ctx_size);
      a.update(work, j ? d2 : d1, n);
      a.final(work, want[j]);
      const Check c = {j ? "finup_2x after 2^38 bytes more, second"
                         : "finup_2x after 2^38 bytes more, first",
                       j == 1, "update()+final() on the same context"};
      check.same(b, c, got[j], want[j]);
    }
  }

  if (p.prefix_len == 0) {  // the null-context form hashes from the IV
    load_inputs();
    a.finup_2x(nullptr, d1, d2, n, o1, o2, &b);
    check.answer(b, {"finup_2x, null ctx, first"}, o1);
    check.answer(b, {"finup_2x, null ctx, second", true}, o2);
  }
}

void Checker::report(const Backend& b, Check c, const Bytes& got, const Bytes* want) const {
  print_signature(p_, b);
  std::string msg = fmt::format("\ncheck:     {}\n", c.what);
  if (want) {
    msg += fmt::format("backend:   {} -> {}\n", b.name, hex(got));
    msg += fmt::format("{:11}{} -> {}\n", c.who.empty() ? "oracle:" : "against:",
                       c.who.empty() ? e_.who : c.who, hex(*want));
  }
  msg += "program:\n" + p_.describe();

  // Who agrees with whom, on the one-shot question behind this check.
  if (want && c.who.empty()) {
    const Bytes m = c.second ? second_message(p_) : p_.message;
    std::vector<oracle::Opinion> votes;
    if (oracle::available(oracle::Source::kCryptoppSimd))
      votes = p_.op == Operation::kHmac ? oracle::hmac_opinions(a_.name, p_.key, m)
                                        : oracle::digest_opinions(a_.name, m);
    for (const Backend* other : a_.family->backends()) {
      if (!other->usable(cpu::effective())) continue;
      Bytes v(a_.digest_size);
      if (p_.op == Operation::kHmac)
        a_.hmac(p_.key.data(), p_.key.size(), m.data(), m.size(), v.data(), other);
      else
        a_.digest(m.data(), m.size(), v.data(), other);
      votes.push_back({std::string(other->name), v});
    }
    msg += "vote (one-shot, same message):\n  " + oracle::tally(votes).to_string() + "\n";
  }
  msg += "cpu:\n" + cpu::report();
  std::fputs(msg.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace

Expected expected_for(const Program& p) {
  Expected e;
  const bool have = oracle::available(oracle::Source::kCryptoppSimd);
  if (!have) {
    // No oracle in this build: generic stands in, checked against it natively.
    const catalog::HashAlgorithm* a = catalog::find_hash(p.algorithm);
    const Backend* generic = a->family->backends().back();
    e.who = std::string(generic->name);
    auto one = [&](const Bytes& m) {
      Bytes v(a->digest_size);
      if (p.op == Operation::kHmac) a->hmac(p.key.data(), p.key.size(), m.data(), m.size(), v.data(), generic);
      else a->digest(m.data(), m.size(), v.data(), generic);
      return v;
    };
    e.value1 = one(p.message);
    if (p.op == Operation::kFinup2x) e.value2 = one(second_message(p));
    return e;
  }
  e.who = std::string(oracle::source_name(oracle::Source::kCryptoppSimd));
  if (p.op == Operation::kHmac) {
    e.value1 = oracle::hmac(p.algorithm, oracle::Source::kCryptoppSimd, p.key, p.message);
  } else {
    e.value1 = oracle::digest(p.algorithm, oracle::Source::kCryptoppSimd, p.message);
  }
  if (p.op == Operation::kFinup2x)
    e.value2 = oracle::digest(p.algorithm, oracle::Source::kCryptoppSimd, second_message(p));
  return e;
}

void check_hash_program(Program p) {
  const catalog::HashAlgorithm* a = catalog::find_hash(p.algorithm);
  if (!a) {
    std::fprintf(stderr, "lockstep: unknown algorithm %s in a fuzz program\n", p.algorithm.c_str());
    std::abort();
  }
  if (p.op == Operation::kFinup2x && !a->finup_2x) {
    // The decoder offers finup_2x per harness; this algorithm has none.
    p.op = Operation::kDigest;
    p.data2.clear();
  }
  const Expected e = expected_for(p);
  const Arena arena(p, *a);
  const Checker check(p, *a, e);
  const std::string program = p.describe();
  for (const Backend* b : a->family->backends()) {
    if (!runs_on(*b) || !b->serves(a->name)) continue;
    const crash::CaseNote note(std::string(b->name) + " running " + program);
    switch (p.op) {
      case Operation::kDigest: run_digest(p, *a, *b, arena, check); break;
      case Operation::kHmac: run_hmac(p, *a, *b, arena, check); break;
      case Operation::kFinup2x: run_finup_2x(p, *a, *b, arena, check); break;
      case Operation::kCrypt: std::abort();  // decode_hash never makes one
    }
  }
}

}  // namespace lockstep::fuzz
