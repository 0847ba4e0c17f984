// State handoff: a message begun by one backend of a family and finished by
// another. The kernel's glue falls back from its SIMD code to the generic
// code in the middle of a message whenever the SIMD unit is unusable (and
// back again at the next call), so every backend of a family must leave the
// state in the one form all the others read: for SHA-2 the FIPS 180-4 words
// in host order (impl/sha2/sha2.h), for ChaCha the sixteen state words with
// the block counter in word 12 (impl/chacha/chacha.h). A backend that keeps
// its own form between calls, or trusts a copy of the state it kept, can
// pass the single-backend cases and still fail here.
//
// Each row hands messages back and forth between its backend and every
// other one of lockstep's own backends of the family that can run here,
// both ways round, and compares with the expected answer (reference.h: the
// oracle). A module's backend is a row, never a partner: it must hand over
// to and take over from lockstep's own code (the kernel's fallback is its
// generic code), and its failures, or its crash, stay in its own row.
// Partners the CPU cannot run are skipped, with their reason in the test's
// properties.
#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "chacha/chacha.h"
#include "hash_conformance.h"
#include "rounds.h"
#include "sha2/catalog_entry.h"
#include "sha256/sha256.h"
#include "sha512/sha512.h"

namespace lockstep::conformance {
namespace {
namespace state_handoff {

std::string joined(const std::vector<std::string>& v, const char* sep = "; ") {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string list(const std::vector<size_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "]";
}

// lockstep's own backends of `self`'s family, but self, that can run here,
// and why the rest cannot. `declines` says why a backend does not run the
// algorithm at all, or "".
struct Partners {
  std::vector<const Backend*> others;  // usable, self excluded
  std::vector<std::string> skipped;    // "<name>: needs <features>"
};

template <class Declines>
Partners partners_of(std::span<const Backend* const> family, const Backend* self, Declines declines) {
  Partners p;
  const cpu::FeatureSet eff = cpu::effective();
  for (const Backend* b : family) {
    if (b == self || !b->module.empty()) continue;
    if (!b->usable(eff)) {
      p.skipped.push_back(std::string(b->name) + ": needs " + (b->needs - eff).to_string());
    } else if (const std::string why = declines(b); !why.empty()) {
      p.skipped.push_back(std::string(b->name) + ": " + why);
    } else {
      p.others.push_back(b);
    }
  }
  return p;
}

// Whether a failed handoff between the row's backend (x) and `y` is x's to
// answer for. The generic backend is the form's definition (the kernel
// falls back to it), so a failure with it is x's; a failure with any other
// partner is x's when that partner hands off correctly, both ways, with
// some third backend on the same case. Otherwise the partner is the one
// that fails with everyone: its own row reports it, and x's row notes it.
// `ok(a, b)` runs the case begun by a and finished by b; `others` are the
// row's partners (the generic backend among them unless it is the row's).
template <class Ok>
bool blame_row(const Backend* y, const Backend* generic, const std::vector<const Backend*>& others,
               Ok ok) {
  if (y == generic) return true;
  for (const Backend* w : others)  // the row's backend is not among them
    if (w != y && ok(y, w) && ok(w, y)) return true;
  return false;
}

// Every run is preceded by a decoy: another message (for ChaCha, the same
// stream far from the case's counter) through the same two backends, and
// it starts in the other one of a pair of contexts. A backend that
// remembers state between calls (the bug this file looks for) then carries
// nothing from one run into the next that could be right by chance: it
// misbehaves alike in every run of a case, whatever ran before, and
// blame_row's reruns see what the failing run saw.
template <class T>
class Pair {
 public:
  template <class... Args>
  explicit Pair(const Args&... args) : a_(args...), b_(args...) {}
  T& next() { return (turn_ ^= 1) ? a_ : b_; }

 private:
  T a_, b_;
  int turn_ = 0;
};

// ---- SHA-2 ----

// Whether the catalog context of `alg` is a front-end context this file
// can hand from one backend to another.
bool switchable(const catalog::HashAlgorithm& alg) {
  return alg.family->name == sha2::Sha256Family::kName || alg.family->name == sha2::Sha512Family::kName;
}

// set_backend makes `b` the backend of the context for the calls that
// follow, as the kernel's glue picks its code per call: the catalog's
// context is the front end's sha2::Ctx of the family (catalog_entry.h).
void set_backend(const catalog::HashAlgorithm& alg, void* ctx, const Backend* b) {
  if (alg.family->name == sha2::Sha256Family::kName)
    static_cast<Sha256Ctx*>(ctx)->backend = sha2::typed<sha2::Sha256Family>(b);
  else
    static_cast<Sha512Ctx*>(ctx)->backend = sha2::typed<sha2::Sha512Family>(b);
}

// A message and its updates: update i goes through the backend of turn
// i % 2, and final() through the backend of the last update.
struct HashCase {
  Bytes msg;
  std::vector<size_t> parts;
  std::string what() const {
    return "len=" + std::to_string(msg.size()) + " updates " + list(parts);
  }
};

void decoy_hash(const catalog::HashAlgorithm& alg, Pair<RawCtx>& ctxs, const Backend* first,
                const Backend* second) {
  static const Bytes decoy(5 * 128 + 7, 0xd5);
  RawCtx& ctx = ctxs.next();
  alg.init(ctx.get(), first);
  alg.update(ctx.get(), decoy.data(), 2 * alg.block_size + 3);
  set_backend(alg, ctx.get(), second);
  alg.update(ctx.get(), decoy.data() + 2 * alg.block_size + 3, decoy.size() - 2 * alg.block_size - 3);
  Bytes out(alg.digest_size);
  alg.final(ctx.get(), out.data());
}

Bytes run_hash(const catalog::HashAlgorithm& alg, Pair<RawCtx>& ctxs, const Backend* first,
               const Backend* second, const HashCase& c) {
  decoy_hash(alg, ctxs, first, second);
  const Backend* by[2] = {first, second};
  RawCtx& ctx = ctxs.next();
  alg.init(ctx.get(), first);
  size_t off = 0;
  for (size_t i = 0; i < c.parts.size(); ++i) {
    set_backend(alg, ctx.get(), by[i % 2]);
    alg.update(ctx.get(), c.msg.data() + off, c.parts[i]);
    off += c.parts[i];
  }
  Bytes out(alg.digest_size);
  alg.final(ctx.get(), out.data());
  return out;
}

// A prefix hashed by one backend, then finup_2x over two messages by the
// other: the 2-way path must read the state another backend left.
struct FinupCase {
  Bytes prefix, data1, data2;
  std::string what() const {
    return "prefix_len=" + std::to_string(prefix.size()) + " data_len=" + std::to_string(data1.size());
  }
};

std::pair<Bytes, Bytes> run_finup(const catalog::HashAlgorithm& alg, Pair<RawCtx>& ctxs,
                                  const Backend* first, const Backend* second, const FinupCase& c) {
  decoy_hash(alg, ctxs, first, second);
  RawCtx& ctx = ctxs.next();
  alg.init(ctx.get(), first);
  alg.update(ctx.get(), c.prefix.data(), c.prefix.size());
  set_backend(alg, ctx.get(), second);
  Bytes out1(alg.digest_size), out2(alg.digest_size);
  alg.finup_2x(ctx.get(), c.data1.data(), c.data2.data(), c.data1.size(), out1.data(), out2.data(),
               second);
  return {out1, out2};
}

// ---- ChaCha ----

// A stream and its calls: call i goes through the backend of turn i % 2,
// from the state the previous call left.
struct CipherCase {
  Bytes key, nonce, msg;
  uint32_t counter;
  std::vector<size_t> parts;
  std::string what() const {
    return "len=" + std::to_string(msg.size()) + " counter=" + std::to_string(counter) + " calls " +
           list(parts);
  }
};

struct CipherRun {
  Bytes out;
  std::array<uint32_t, 16> state;
};

using Words = std::array<uint32_t, 16>;

CipherRun run_cipher(const catalog::CipherAlgorithm& alg, Pair<Words>& states, const Backend* first,
                     const Backend* second, const CipherCase& c) {
  const Backend* by[2] = {first, second};
  // Apart, not in place: a module may declare that it takes no overlap.
  const uint8_t decoy_in[64 + 13] = {};
  uint8_t decoy_out[64 + 13];
  Words& far = states.next();
  alg.init(far.data(), c.key.data(), c.counter ^ 0x80000000u, c.nonce.data());
  alg.crypt(far.data(), decoy_out, decoy_in, 64, first);
  alg.crypt(far.data(), decoy_out + 64, decoy_in + 64, 13, second);

  CipherRun r{Bytes(c.msg.size()), {}};
  Words& state = states.next();
  alg.init(state.data(), c.key.data(), c.counter, c.nonce.data());
  size_t off = 0;
  for (size_t i = 0; i < c.parts.size(); ++i) {
    alg.crypt(state.data(), r.out.data() + off, c.msg.data() + off, c.parts[i], by[i % 2]);
    off += c.parts[i];
  }
  r.state = state;
  return r;
}

uint32_t blocks_of(size_t len) { return static_cast<uint32_t>((len + 63) / 64); }

}  // namespace state_handoff
}  // namespace

// Test that a SHA-2 message can be begun by one backend and finished by
// another, for this row's backend and every other one of its family that
// can run here, both ways round: the first backend compresses the blocks
// of the first update (k whole blocks, the rest of it buffered), the second
// everything after, padding included. Splits after 0 bytes, one block, all
// the whole blocks, the whole message (the second backend pads only) and a
// random point, of messages of 3 and 2.5 blocks, 1000 and 16384 bytes; then
// 24 random lengths up to 16384 split at random; then 8 messages in several
// updates that change backend at each one (the kernel's SIMD usable and not
// by turns); 8, 3 and 3 in sanitizer builds. For SHA-256, 8 (3) more: a
// prefix by one backend and finup_2x by the other, data up to 16384. Every
// digest must be the expected one (reference.h); a failure is the row's
// when its partner hands off correctly with the others (blame_row).
TEST_P(HashConformance, StateHandoff) {
  using namespace state_handoff;
  if (!switchable(alg()))
    return skip_not_applicable("the " + std::string(alg().family->name) +
                               " family has no front-end context to hand over");
  const Partners p = partners_of(alg().family->backends(), backend(), [](const Backend*) { return ""; });
  if (!p.skipped.empty()) RecordProperty("handoff_partners_skipped", joined(p.skipped));
  if (p.others.empty())
    return skip_with_reason("no other backend of the " + std::string(alg().family->name) +
                            " family can run here" +
                            (p.skipped.empty() ? "" : ": " + joined(p.skipped)));

  const size_t b = block_size();
  std::vector<HashCase> cases;
  for (const size_t len : {3 * b, 2 * b + b / 2, size_t{1000}, size_t{16384}}) {
    const Bytes msg = rng().bytes(len);
    for (const size_t split : {size_t{0}, b, len / b * b, len, rng().below(len + 1)})
      cases.push_back({msg, {split, len - split}});
  }
  for (int i = 0; i < rounds(24, 8); ++i) {
    const size_t len = rng().length(16384);
    const size_t split = rng().below(len + 1);
    cases.push_back({rng().bytes(len), {split, len - split}});
  }
  for (int i = 0; i < rounds(8, 3); ++i) {
    const size_t len = rng().length(16384);
    HashCase c{rng().bytes(len), {}};
    for (size_t left = len; left != 0 || c.parts.size() < 3;) {
      size_t part = rng().coin() ? b * rng().below(left / b + 1) : rng().length(left);
      if (c.parts.size() >= 8) part = left;
      c.parts.push_back(part);
      left -= part;
    }
    cases.push_back(std::move(c));
  }

  Pair<RawCtx> ctxs(alg().ctx_size, alg().ctx_align);
  std::vector<std::string> notes;
  int failures = 0;
  for (const HashCase& c : cases) {
    const Bytes want = expected_digest(c.msg);
    auto ok = [&](const Backend* first, const Backend* second) {
      return run_hash(alg(), ctxs, first, second, c) == want;
    };
    for (const Backend* y : p.others) {
      for (const bool row_first : {true, false}) {
        const Backend* first = row_first ? backend() : y;
        const Backend* second = row_first ? y : backend();
        const Bytes got = run_hash(alg(), ctxs, first, second, c);
        if (got == want) continue;
        const std::string how = std::string(first->name) + " began, " + std::string(second->name) +
                                " took over (" + c.what() + ", by turns)";
        if (!blame_row(y, generic(), p.others, ok)) {
          notes.push_back(how);
          continue;
        }
        ++failures;
        EXPECT_TRUE(same_bytes(got, want)) << label() << ": state handoff: " << how;
      }
    }
    if (failures >= 3) break;  // a few cases tell the story
  }

  if (alg().finup_2x != nullptr && failures == 0) {
    for (int i = 0; i < rounds(8, 3); ++i) {
      const size_t prefix_len = i < 2 ? i * b : rng().length(4 * b);
      const size_t len = i < 2 ? b + 1 : rng().length(16384);
      const FinupCase c{rng().bytes(prefix_len), rng().bytes(len), rng().bytes(len)};
      Bytes whole1 = c.prefix, whole2 = c.prefix;
      whole1.insert(whole1.end(), c.data1.begin(), c.data1.end());
      whole2.insert(whole2.end(), c.data2.begin(), c.data2.end());
      const Bytes want1 = expected_digest(whole1), want2 = expected_digest(whole2);
      auto ok = [&](const Backend* first, const Backend* second) {
        const auto [o1, o2] = run_finup(alg(), ctxs, first, second, c);
        return o1 == want1 && o2 == want2;
      };
      for (const Backend* y : p.others) {
        for (const bool row_first : {true, false}) {
          const Backend* first = row_first ? backend() : y;
          const Backend* second = row_first ? y : backend();
          const auto [o1, o2] = run_finup(alg(), ctxs, first, second, c);
          if (o1 == want1 && o2 == want2) continue;
          const std::string how = std::string(first->name) + " hashed the prefix, " +
                                  std::string(second->name) + " ran finup_2x (" + c.what() + ")";
          if (!blame_row(y, generic(), p.others, ok)) {
            notes.push_back(how);
            continue;
          }
          ++failures;
          EXPECT_TRUE(same_bytes(o1, want1)) << label() << ": state handoff, first digest: " << how;
          EXPECT_TRUE(same_bytes(o2, want2)) << label() << ": state handoff, second digest: " << how;
        }
      }
      if (failures >= 3) break;
    }
  }

  if (!notes.empty()) {
    RecordProperty("handoff_left_to_partner", joined(notes));
    std::printf("%s: %zu handoffs failed whose partner fails with the other backends too, left to "
                "the partner's row; the first: %s\n",
                label().c_str(), notes.size(), notes.front().c_str());
  }
}

namespace {

class HandoffChachaConformance : public CipherTest {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(All, HandoffChachaConformance, testing::ValuesIn(cipher_params()),
                         CipherParamName());

// Test that a ChaCha stream can be begun by one backend and continued by
// another from the state the first returned (the counter in word 12), for
// this row's backend and every other one of its family that runs the
// algorithm here, both ways round: a 1280-byte stream split after 0, 1, 4,
// 8, 16 and 20 blocks and after 100 bytes (a partial block consumes its
// counter value, so the next call starts at the following block); then 24
// random lengths up to 16384 split at random; then 8 streams whose counter
// starts just below 2^32, so that the wrap falls in the second backend's
// call; then 8 streams in several calls that change backend at each one
// (8, 3 and 3 in sanitizer builds). The output must be the expected
// keystream XOR the message (reference.h), and the state after the last
// call must hold the counter advanced by every block and words 13..15 as
// they were. A failure is the row's when its partner hands off correctly
// with the others (blame_row).
TEST_P(HandoffChachaConformance, StateHandoff) {
  using namespace state_handoff;
  const catalog::CipherAlgorithm& a = alg();
  const Partners p =
      partners_of(a.family->backends(), backend(), [&a](const Backend* b) { return a.unsupported(b); });
  if (!p.skipped.empty()) RecordProperty("handoff_partners_skipped", joined(p.skipped));
  if (p.others.empty())
    return skip_with_reason("no other backend of the " + std::string(a.family->name) +
                            " family runs " + std::string(a.name) + " here" +
                            (p.skipped.empty() ? "" : ": " + joined(p.skipped)));

  auto make = [&](size_t len, uint32_t counter) {
    return CipherCase{rng().bytes(chacha::kKeySize), rng().bytes(a.nonce_size), rng().bytes(len),
                      counter, {}};
  };
  std::vector<CipherCase> cases;
  for (const size_t split : {0, 64, 4 * 64, 8 * 64, 16 * 64, 20 * 64, 100}) {
    CipherCase c = make(20 * 64, 1);
    c.parts = {split, c.msg.size() - split};
    cases.push_back(std::move(c));
  }
  for (int i = 0; i < rounds(24, 8); ++i) {
    CipherCase c = make(rng().length(16384), rng().coin() ? 0 : rng().u32() >> 8);
    const size_t len = c.msg.size();
    const size_t split = rng().coin() ? 64 * rng().below(len / 64 + 1) : rng().below(len + 1);
    c.parts = {split, c.msg.size() - split};
    cases.push_back(std::move(c));
  }
  for (int i = 0; i < rounds(8, 3); ++i) {
    const uint32_t k = 1 + static_cast<uint32_t>(rng().below(8));
    CipherCase c = make(64 * (k + 1 + rng().below(16)) - rng().below(64), 0u - k);
    const size_t split = 64 * rng().below(k);  // the first call stops short of the wrap
    c.parts = {split, c.msg.size() - split};
    cases.push_back(std::move(c));
  }
  for (int i = 0; i < rounds(8, 3); ++i) {
    CipherCase c = make(rng().length(16384), rng().u32() >> 4);
    for (size_t left = c.msg.size(); left != 0 || c.parts.size() < 3;) {
      size_t part = 64 * rng().below(left / 64 + 1);
      // The last call may end mid-block.
      if (part == 0 || rng().below(6) == 0 || c.parts.size() >= 8) part = left;
      c.parts.push_back(part);
      left -= part;
    }
    cases.push_back(std::move(c));
  }

  Pair<Words> states;
  std::vector<std::string> notes;
  int failures = 0, not_run = 0;
  for (const CipherCase& c : cases) {
    // The expected output call by call, each from the counter it starts at.
    Bytes want;
    uint32_t counter = c.counter;
    size_t off = 0;
    for (const size_t part : c.parts) {
      const Bytes piece = expected_chacha(a, c.key, counter, c.nonce, {c.msg.data() + off, part});
      want.insert(want.end(), piece.begin(), piece.end());
      counter += blocks_of(part);
      off += part;
    }
    std::array<uint32_t, 16> fresh;
    a.init(fresh.data(), c.key.data(), c.counter, c.nonce.data());
    const bool wraps = wraps_past(c.counter, 64 * size_t{counter - c.counter});
    auto judge = [&](const CipherRun& r) -> testing::AssertionResult {
      if (r.out != want) return same_bytes(r.out, want);
      if (r.state[12] != counter)
        return testing::AssertionFailure() << "the counter after the last call is " << r.state[12]
                                           << ", want " << counter;
      if (!std::equal(r.state.begin() + 13, r.state.end(), fresh.begin() + 13))
        return testing::AssertionFailure() << "words 13..15 changed: word 13 is " << r.state[13]
                                           << ", was " << fresh[13];
      return testing::AssertionSuccess();
    };
    auto ok = [&](const Backend* first, const Backend* second) {
      return static_cast<bool>(judge(run_cipher(a, states, first, second, c)));
    };
    for (const Backend* y : p.others) {
      // A backend that declared OpenSSL EVP's carry past 2^32 - 1 runs
      // another stream there; CounterWrap holds it to that.
      if (wraps && (a.carries(backend()) || a.carries(y))) {
        ++not_run;
        continue;
      }
      for (const bool row_first : {true, false}) {
        const Backend* first = row_first ? backend() : y;
        const Backend* second = row_first ? y : backend();
        const testing::AssertionResult verdict = judge(run_cipher(a, states, first, second, c));
        if (verdict) continue;
        const std::string how = std::string(first->name) + " began, " + std::string(second->name) +
                                " took over (" + c.what() + ", by turns)";
        if (!blame_row(y, generic(), p.others, ok)) {
          notes.push_back(how);
          continue;
        }
        ++failures;
        ADD_FAILURE() << label() << ": state handoff: " << how << ": " << verdict.message();
      }
    }
    if (failures >= 3) break;
  }
  if (not_run) RecordProperty("handoff_not_run_past_the_carry", not_run);
  if (!notes.empty()) {
    RecordProperty("handoff_left_to_partner", joined(notes));
    std::printf("%s: %zu handoffs failed whose partner fails with the other backends too, left to "
                "the partner's row; the first: %s\n",
                label().c_str(), notes.size(), notes.front().c_str());
  }
}

}  // namespace lockstep::conformance
