// Runs imported cases through the catalog's type-erased entry points, so any
// backend of the right family runs them, XChaCha20 and HChaCha20 included.
#include "vector_runner.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "chacha/chacha.h"
#include "cpu/cpu.h"
#include "mismatch.h"
#include "vectors/import/reader_util.h"

namespace lockstep::vectors::import {
namespace {

using detail::to_hex;

constexpr size_t kShownBytes = 64;  // of a value in a failure message

std::string mismatch(const Bytes& got, const Bytes& want) {
  return conformance::describe_mismatch(got, want);
}

// verdict compares under an expectation: an "invalid" test must not match.
Verdict verdict(const Bytes& got, const Bytes& want, Expect expect) {
  const bool match = got == want;
  switch (expect) {
    case Expect::kMatch:
      if (match) return {true, ""};
      return {false, mismatch(got, want)};
    case Expect::kMismatch:
      if (!match) return {true, ""};
      return {false, "an invalid test matched: " + to_hex(want, kShownBytes)};
    case Expect::kEither:
      return {true, ""};
  }
  return {false, "unknown expectation"};
}

std::string_view hash_of(std::string_view algorithm) {
  if (algorithm.rfind("hmac-", 0) == 0) algorithm.remove_prefix(5);
  return algorithm;
}

const catalog::HashAlgorithm& hash_alg(const Case& c) {
  const catalog::HashAlgorithm* h = catalog::find_hash(hash_of(c.algorithm));
  if (!h) throw std::logic_error("vectors import: no hash '" + c.algorithm + "' in the catalog");
  return *h;
}

// Contexts are type-erased, at most 8-byte aligned.
struct Ctx {
  explicit Ctx(size_t size) : words((size + 7) / 8) {}
  void* get() { return words.data(); }
  std::vector<uint64_t> words;
};

Bytes digest(const catalog::HashAlgorithm& h, const Bytes& msg, const Backend& b) {
  Bytes out(h.digest_size);
  h.digest(msg.data(), msg.size(), out.data(), &b);
  return out;
}

Verdict run(const Case& c, const HashCase& t, const Backend& b) {
  return verdict(digest(hash_alg(c), t.msg, b), t.md, t.expect);
}

// The message is streamed in chunks that are whole copies of the content, so
// every chunk starts where a copy starts and the last one may stop short.
Verdict run(const Case& c, const LargeHashCase& t, const Backend& b) {
  const catalog::HashAlgorithm& h = hash_alg(c);
  if (t.content.empty() && t.total) return {false, "no content to repeat"};
  constexpr size_t kChunk = size_t{1} << 20;
  const size_t copies = std::max<size_t>(1, kChunk / std::max<size_t>(1, t.content.size()));
  Bytes chunk;
  chunk.reserve(copies * t.content.size());
  for (size_t i = 0; i < copies; ++i) chunk.insert(chunk.end(), t.content.begin(), t.content.end());
  Ctx ctx(h.ctx_size);
  h.init(ctx.get(), &b);
  for (uint64_t left = t.total; left > 0;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(left, chunk.size()));
    h.update(ctx.get(), chunk.data(), n);
    left -= n;
  }
  Bytes got(h.digest_size);
  h.final(ctx.get(), got.data());
  if (got == t.md) return {true, ""};
  return {false, mismatch(got, t.md)};
}

Verdict run(const Case& c, const MonteCase& t, const Backend& b) {
  const catalog::HashAlgorithm& h = hash_alg(c);
  Bytes seed = t.seed, msg;
  for (size_t j = 0; j < t.checkpoints.size(); ++j) {
    Bytes a = seed, m1 = seed, m2 = seed;
    for (int i = 0; i < 1000; ++i) {
      msg.clear();
      msg.insert(msg.end(), a.begin(), a.end());
      msg.insert(msg.end(), m1.begin(), m1.end());
      msg.insert(msg.end(), m2.begin(), m2.end());
      // The alternate version cuts or zero-extends to the first seed's length.
      if (t.msg_len) msg.resize(t.msg_len, 0);
      a = std::move(m1);
      m1 = std::move(m2);
      m2 = digest(h, msg, b);
    }
    if (m2 != t.checkpoints[j])
      return {false, t.label + " " + std::to_string(j) + ": " + mismatch(m2, t.checkpoints[j])};
    seed = std::move(m2);
  }
  return {true, ""};
}

Verdict run(const Case& c, const MacCase& t, const Backend& b) {
  const catalog::HashAlgorithm& h = hash_alg(c);
  if (t.mac_len == 0 || t.mac_len > h.digest_size)
    return {false, "MAC length " + std::to_string(t.mac_len) + " out of range"};
  Bytes mac(h.digest_size);
  h.hmac(t.key.data(), t.key.size(), t.msg.data(), t.msg.size(), mac.data(), &b);
  mac.resize(t.mac_len);
  const bool verifies = mac == t.tag;
  switch (t.expect) {
    case Expect::kMatch:
      if (verifies) return {true, ""};
      return {false, mismatch(mac, t.tag)};
    case Expect::kMismatch:
      if (!verifies) return {true, ""};
      return {false, "an invalid tag verified: " + to_hex(t.tag, kShownBytes)};
    case Expect::kEither:
      return {true, ""};
  }
  return {false, "unknown expectation"};
}

// The keystream from the block holding `offset`, its first offset % 64
// bytes run over zeros and then dropped.
Verdict run(const Case& c, const StreamCase& t, const Backend& b) {
  const uint32_t counter = static_cast<uint32_t>(t.offset / chacha::kBlockSize);
  const size_t lead = static_cast<size_t>(t.offset % chacha::kBlockSize);
  Bytes src(lead, 0);
  src.insert(src.end(), t.in.begin(), t.in.end());
  Bytes dst(src.size());
  const catalog::CipherAlgorithm* alg = catalog::find_cipher(c.algorithm);
  if (!alg) throw std::logic_error("vectors import: no cipher '" + c.algorithm + "' in the catalog");
  if (t.key.size() != chacha::kKeySize || t.nonce.size() != alg->nonce_size)
    return {false, std::string(alg->display) + " takes a 32-byte key and a " +
                       std::to_string(alg->nonce_size) + "-byte nonce"};
  uint32_t state[16];
  alg->init(state, t.key.data(), counter, t.nonce.data());
  alg->crypt(state, dst.data(), src.data(), src.size(), &b);
  const Bytes got(dst.begin() + static_cast<ptrdiff_t>(lead), dst.end());
  return verdict(got, t.out, t.expect);
}

// The kernel's consolidated values (lib/crypto/tests/hash-test-template.h),
// on the kernel's data rule.
Verdict run(const Case& c, const ConsolidatedCase& t, const Backend& b) {
  const catalog::HashAlgorithm& h = hash_alg(c);
  const Bytes data = kernel_data(t.max_len);
  Bytes got(h.digest_size), step(h.digest_size);
  if (c.algorithm.rfind("hmac-", 0) != 0) {
    Ctx ctx(h.ctx_size);
    h.init(ctx.get(), &b);
    for (size_t len = 0; len <= t.max_len; ++len) {
      h.digest(data.data(), len, step.data(), &b);
      h.update(ctx.get(), step.data(), step.size());
    }
    h.final(ctx.get(), got.data());
  } else {
    // Keyed with kernel_data(32); for each length the data, then the HMAC of
    // the data under kernel_data(len % 293).
    const Bytes outer = kernel_data(32);
    Ctx ctx(h.hmac_ctx_size);
    h.hmac_init_usingrawkey(ctx.get(), outer.data(), outer.size(), &b);
    for (size_t len = 0; len <= t.max_len; ++len) {
      const Bytes key = kernel_data(len % 293);
      h.hmac_update(ctx.get(), data.data(), len);
      h.hmac(key.data(), key.size(), data.data(), len, step.data(), &b);
      h.hmac_update(ctx.get(), step.data(), step.size());
    }
    h.hmac_final(ctx.get(), got.data());
  }
  return verdict(got, t.value, t.expect);
}

Verdict run(const Case& c, const Finup2xCase& t, const Backend& b) {
  const catalog::HashAlgorithm& h = hash_alg(c);
  if (!h.finup_2x) return {false, c.algorithm + " has no finup_2x"};
  if (t.data1.size() != t.data2.size()) return {false, "finup_2x needs data1 and data2 of one length"};
  Ctx ctx(h.ctx_size);
  h.init(ctx.get(), &b);
  h.update(ctx.get(), t.prefix.data(), t.prefix.size());
  Bytes md1(h.digest_size), md2(h.digest_size);
  h.finup_2x(ctx.get(), t.data1.data(), t.data2.data(), t.data1.size(), md1.data(), md2.data(), &b);
  const Verdict v1 = verdict(md1, t.md1, t.expect);
  if (!v1.pass) return {false, "md1: " + v1.detail};
  const Verdict v2 = verdict(md2, t.md2, t.expect);
  if (!v2.pass) return {false, "md2: " + v2.detail};
  return {true, ""};
}

Verdict run(const Case& c, const HChachaCase& t, const Backend&) {
  const catalog::SubkeyAlgorithm* alg = catalog::find_subkey(c.algorithm);
  if (!alg) throw std::logic_error("vectors import: no subkey algorithm '" + c.algorithm + "' in the catalog");
  if (t.key.size() != alg->key_size || t.nonce.size() != alg->input_size)
    return {false, std::string(alg->display) + " takes a " + std::to_string(alg->key_size) +
                       "-byte key and a " + std::to_string(alg->input_size) + "-byte nonce"};
  Bytes got(alg->output_size);
  alg->derive(t.key.data(), t.nonce.data(), got.data());
  return verdict(got, t.subkey, t.expect);
}

}  // namespace

std::string size_text(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + kUnits[unit];
}

const catalog::Family* family_of_case(const Case& c) {
  return catalog::find_algorithm_family(hash_of(c.algorithm));
}

std::string skip_reason(const Case& c, const RunOptions& o) {
  if (!c.skip.empty()) return c.skip;
  const uint64_t limit = std::max(o.ldt_max, o.ldt_max_default);
  if (const auto* t = std::get_if<LargeHashCase>(&c.body); t && t->total > limit)
    return "ACVP large-data test over --ldt-max " + size_text(limit) +
           " (raise it, or LOCKSTEP_ACVP_LDT_MAX)";
  return "";
}

// sits_out says why `b` does not run case `c` ("" when it does): a
// large-data test over --ldt-max on a backend other than its family's
// default (which runs them up to --ldt-max-default); a module backend that
// declared no support for the round count, or that declared OpenSSL EVP's
// counter carry, for a stream that passes block 2^32 - 1 (upstream files
// state the RFC 8439 wrap; conformance holds it to its own).
std::string sits_out(const Case& c, const Backend& b, const catalog::Family& fam, const RunOptions& o) {
  if (const auto* l = std::get_if<LargeHashCase>(&c.body); l && l->total > o.ldt_max) {
    if (&b != fam.default_backend() || l->total > o.ldt_max_default)
      return "ACVP large-data test over --ldt-max " + size_text(o.ldt_max) + " off the default backend";
    return "";
  }
  const auto* t = std::get_if<StreamCase>(&c.body);
  const catalog::CipherAlgorithm* alg = t ? catalog::find_cipher(c.algorithm) : nullptr;
  if (alg == nullptr) return "";
  if (std::string why = alg->unsupported(&b); !why.empty()) return why;
  const uint64_t end_block = (t->offset + t->in.size() + chacha::kBlockSize - 1) / chacha::kBlockSize;
  if (alg->carries(&b) && end_block > (uint64_t{1} << 32))
    return std::string(b.name) + " declares OpenSSL EVP's counter carry";
  return "";
}

Verdict run_case(const Case& c, const Backend& b) {
  return std::visit(
      [&](const auto& body) -> Verdict {
        if constexpr (std::is_same_v<std::decay_t<decltype(body)>, std::monostate>)
          return {false, "nothing to run: " + c.skip};
        else
          return run(c, body, b);
      },
      c.body);
}

size_t FileReport::skipped_cases() const {
  size_t n = 0;
  for (const SkipGroup& g : skipped) n += g.ids.size();
  return n;
}

size_t FileReport::failed() const {
  size_t n = 0;
  for (const BackendReport& b : backends) n += b.failed;
  return n;
}

FileReport run_file(const ImportedFile& f, const RunOptions& o) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  FileReport r;
  r.name = f.name;
  r.format = f.format;
  r.algorithm = f.algorithm;

  const catalog::Family* only_family = o.only ? catalog::family_of(o.only) : nullptr;
  std::vector<const catalog::Family*> families;  // in order of first appearance
  std::map<const catalog::Family*, std::vector<const Case*>> runnable;
  std::map<const catalog::Family*, size_t> skipped;
  for (const Case& c : f.cases) {
    const catalog::Family* fam = family_of_case(c);
    if (only_family && fam && fam != only_family) continue;
    ++r.cases;
    if (fam && std::find(families.begin(), families.end(), fam) == families.end())
      families.push_back(fam);
    const std::string why = skip_reason(c, o);
    if (why.empty() && fam) {
      runnable[fam].push_back(&c);
      continue;
    }
    const std::string reason = why.empty() ? c.algorithm + ": not in lockstep's catalog" : why;
    auto g = std::find_if(r.skipped.begin(), r.skipped.end(),
                          [&](const SkipGroup& s) { return s.reason == reason; });
    if (g == r.skipped.end()) g = r.skipped.insert(r.skipped.end(), SkipGroup{reason, {}});
    g->ids.push_back(c.id);
    if (fam) ++skipped[fam];
  }

  const cpu::FeatureSet features = cpu::effective();
  for (const catalog::Family* fam : families) {
    std::vector<const Backend*> backends;
    if (o.only) backends.push_back(o.only);
    else for (const Backend* b : fam->backends()) backends.push_back(b);
    for (const Backend* b : backends) {
      if (!b->usable(features)) {
        r.unavailable.push_back(std::string(b->name) + " (needs " + (b->needs - features).to_string() + ")");
        continue;
      }
      const auto t0 = Clock::now();
      BackendReport br;
      br.backend = b;
      br.skipped = skipped[fam];
      for (const Case* c : runnable[fam]) {
        if (!sits_out(*c, *b, *fam, o).empty()) {
          ++br.skipped;
          continue;
        }
        ++br.run;
        const Verdict v = run_case(*c, *b);
        if (v.pass) {
          ++br.passed;
        } else {
          ++br.failed;
          br.failures.push_back(c->id + " (" + c->algorithm + "): " + v.detail);
        }
      }
      br.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      r.backends.push_back(std::move(br));
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

}  // namespace lockstep::vectors::import
