// The residue column: every backend call runs on a stack of its own, filled
// with a pattern (residue/stack.h, through a ResidueWatch), and what the
// call left below its stack pointer is searched for the secrets it was
// handed or derived: key words (and their broadcast copies), keystream and
// plaintext for ChaCha; message words, message-schedule words W[t] and
// W[t] + K[t] for SHA-2 (residue/secrets.h). It is what the kernel's
// memzero_explicit() calls promise: nothing secret survives the call.
//
// lockstep's own backends must leave nothing: a find fails the row, naming
// the call, the secret and its offset below the stack pointer, as it does
// for a module that declares it wipes (module.h). Other code lockstep did
// not write (modules, trees) is reported as a WARN. The vector
// registers as the callee left them are searched too and reported as
// notes: neither the kernel nor the libraries clear them.
#include <signal.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backend_fixture.h"
#include "chacha/chacha.h"
#include "cpu/cpu.h"
#include "host/residue_watch.h"
#include "residue/secrets.h"
#include "residue/stack.h"
#include "sha256/constants.h"
#include "sha512/constants.h"

namespace lockstep::conformance {
namespace {

constexpr size_t kHashLengths[] = {1, 55, 64, 65, 200, 1000, 4099};
constexpr size_t kFinupLengths[] = {1, 64, 200, 1000};
constexpr size_t kCipherLengths[] = {1, 63, 64, 65, 200, 257, 513, 1000, 4099};

// Where the residue check cannot judge a backend, why; "" where it can.
std::string cannot_judge() {
#if defined(LOCKSTEP_SANITIZED)
  return "not applicable: a sanitizer build's frames hold redzones and its reads of a stack are checked against "
         "shadow memory: the default build runs this column";
#endif
  if (!residue::kSupported) return "no patterned-stack call for this architecture (x86-64 and arm64 only)";
  // A trap emulator's frames must land on the thread's alternate stack
  // (emulation/trap installs its handler SA_ONSTACK), not on the stack read.
  stack_t ss{};
  if (!cpu::state().in_process_emulator.empty() && (sigaltstack(nullptr, &ss) != 0 || (ss.ss_flags & SS_DISABLE)))
    return "a trap emulator runs here and this thread has no alternate signal stack for its frames";
  return "";
}

// Watch runs the calls of one case on a patterned stack and keeps what
// the secrets search found there and in the registers.
class Watch {
 public:
  Watch(const residue::Secrets& secrets, std::string call)
      : call_(std::move(call)), watch_([this, &secrets](std::string_view function, const residue::Stack& s) {
          inspect(secrets, function, s);
        }) {}

  size_t calls() const { return watch_.calls(); }
  const std::vector<std::string>& stack_finds() const { return stack_; }
  const std::vector<std::string>& register_finds() const { return registers_; }

 private:
  void inspect(const residue::Secrets& secrets, std::string_view function, const residue::Stack& s) {
    const std::span<const uint8_t> used = s.used();
    for (const residue::Secrets::Hit& h : secrets.find(used, 4))
      stack_.push_back(fmt::format("{}() left {} on the stack at sp-{:#x} (of {} bytes it used), in {}", function,
                                   h.what, used.size() - h.offset, used.size(), call_));
    for (const residue::Secrets::Hit& h : secrets.find(s.vectors(), 4))
      registers_.push_back(fmt::format("{}() left {} in {} ({})", function, h.what, s.vector_name(h.offset), call_));
  }

  std::string call_;
  std::vector<std::string> stack_, registers_;
  ResidueWatch watch_;
};

// A wipe is sized for the frames of the default build's code (-O2). The
// coverage build's (-O1 -fno-inline, coverage/) are deeper: it runs this
// column for the code it reaches and leaves the verdict to the default build.
#if defined(LOCKSTEP_COVERAGE_BUILD)
constexpr const char* kWipesNotJudged = " (a warning in the coverage build: wipes are sized for -O2 frames)";
#else
constexpr const char* kWipesNotJudged = nullptr;
#endif

// judge: stack finds fail a backend that wipes (lockstep's own, a module
// that declares it) and warn for the others; register finds are notes. At most a few of each are shown.
void judge(const Backend& b, const std::string& row, const Watch& w) {
  EXPECT_GT(w.calls(), 0u) << row << ": the case made no backend call on the patterned stack";
  const std::vector<std::string>& finds = w.stack_finds();
  for (size_t i = 0; i < finds.size() && i < 3; ++i) {
    if (b.wipes && kWipesNotJudged == nullptr)
      ADD_FAILURE() << row << ": residue: " << finds[i];
    else
      warn(row + ": residue: " + finds[i] + (b.wipes ? kWipesNotJudged : ""));
  }
  for (size_t i = 0; i < w.register_finds().size() && i < 2; ++i)
    std::printf("[ NOTE     ] %s: residue: %s\n", row.c_str(), w.register_finds()[i].c_str());
}

// --- SHA-2: the message words and the schedule, as a backend derives them.

uint32_t ror32(uint32_t x, int n) { return x >> n | x << (32 - n); }
uint64_t ror64(uint64_t x, int n) { return x >> n | x << (64 - n); }

// padded: msg with the SHA-2 padding, as the front end hands its blocks.
Bytes padded(std::span<const uint8_t> msg, size_t block) {
  const size_t length_bytes = block == 64 ? 8 : 16;
  Bytes out(msg.begin(), msg.end());
  out.push_back(0x80);
  while (out.size() % block != block - length_bytes) out.push_back(0);
  const uint64_t bits = static_cast<uint64_t>(msg.size()) * 8;
  for (size_t i = 0; i < length_bytes; ++i)
    out.push_back(i < length_bytes - 8 ? 0 : static_cast<uint8_t>(bits >> (8 * (length_bytes - 1 - i))));
  return out;
}

void add_sha256_schedule(residue::Secrets& s, std::span<const uint8_t> padded_msg, const std::string& name) {
  for (size_t at = 0, n = 0; at < padded_msg.size(); at += 64, ++n) {
    std::array<uint32_t, 64> w, wk;
    for (size_t t = 0; t < 16; ++t)
      w[t] = uint32_t{padded_msg[at + 4 * t]} << 24 | uint32_t{padded_msg[at + 4 * t + 1]} << 16 |
             uint32_t{padded_msg[at + 4 * t + 2]} << 8 | padded_msg[at + 4 * t + 3];
    for (size_t t = 16; t < 64; ++t) {
      const uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    for (size_t t = 0; t < 64; ++t) wk[t] = w[t] + kSha256K[t];
    s.add_words32(fmt::format("{} block {} W", name, n), w);
    s.add_words32(fmt::format("{} block {} W+K", name, n), wk);
  }
}

void add_sha512_schedule(residue::Secrets& s, std::span<const uint8_t> padded_msg, const std::string& name) {
  for (size_t at = 0, n = 0; at < padded_msg.size(); at += 128, ++n) {
    std::array<uint64_t, 80> w, wk;
    for (size_t t = 0; t < 16; ++t) {
      w[t] = 0;
      for (size_t i = 0; i < 8; ++i) w[t] = w[t] << 8 | padded_msg[at + 8 * t + i];
    }
    for (size_t t = 16; t < 80; ++t) {
      const uint64_t s0 = ror64(w[t - 15], 1) ^ ror64(w[t - 15], 8) ^ (w[t - 15] >> 7);
      const uint64_t s1 = ror64(w[t - 2], 19) ^ ror64(w[t - 2], 61) ^ (w[t - 2] >> 6);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    for (size_t t = 0; t < 80; ++t) wk[t] = w[t] + kSha512K[t];
    s.add_words64(fmt::format("{} block {} W", name, n), w);
    s.add_words64(fmt::format("{} block {} W+K", name, n), wk);
  }
}

// The secrets of hashing `msg`: its bytes and the words every block of its
// padded form gives the compression function. W[t] + K[t] is K[t] where the
// padding's W[t] is zero: those are the public round constants (a backend
// may keep K in its registers or frame), never a find.
void add_message(residue::Secrets& s, const catalog::HashAlgorithm& alg, std::span<const uint8_t> msg,
                 const std::string& name) {
  s.add_bytes(name, msg);
  const Bytes p = padded(msg, alg.block_size);
  if (alg.block_size == 64) {
    s.add_public_words32(kSha256K);
    add_sha256_schedule(s, p, name);
  } else {
    s.add_public_words64(kSha512K);
    add_sha512_schedule(s, p, name);
  }
}

class HashResidue : public BackendTest {};
INSTANTIATE_TEST_SUITE_P(All, HashResidue, testing::ValuesIn(hash_params()), HashParamName());

TEST_P(HashResidue, NothingSecretLeftOnTheStack) {
  if (const std::string why = cannot_judge(); !why.empty())
    return why.starts_with("not applicable: ") ? skip_not_applicable(why.substr(16)) : skip_with_reason(why);
  for (const size_t len : kHashLengths) {
    const Bytes msg = rng().bytes(len);
    residue::Secrets secrets;
    add_message(secrets, alg(), msg, "message");
    Watch w(secrets, fmt::format("digest, len={}", len));
    digest(msg);
    judge(*backend(), label(), w);
  }
  if (alg().finup_2x == nullptr) return;
  for (const size_t len : kFinupLengths) {
    const Bytes msg1 = rng().bytes(len), msg2 = rng().bytes(len);
    residue::Secrets secrets;
    add_message(secrets, alg(), msg1, "message 1");
    add_message(secrets, alg(), msg2, "message 2");
    Bytes out1(digest_size()), out2(digest_size());
    Watch w(secrets, fmt::format("finup_2x from the empty context, len={}", len));
    alg().finup_2x(nullptr, msg1.data(), msg2.data(), len, out1.data(), out2.data(), backend());
    judge(*backend(), label(), w);
  }
}

// --- ChaCha: the key (as the state holds it), keystream and plaintext.

void add_words_of(residue::Secrets& s, const std::string& what, std::span<const uint32_t> words) {
  s.add_words32(what, words);
  // Broadcast: wide code keeps a word in every lane of a register.
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t twice[] = {words[i], words[i]};
    s.add_words32(fmt::format("{} word {} (broadcast)", what, i), twice);
  }
}

void add_keystream(residue::Secrets& s, std::span<const uint8_t> keystream) {
  const size_t blocks = (keystream.size() + 63) / 64;
  std::vector<std::array<uint32_t, 16>> words(blocks, std::array<uint32_t, 16>{});
  for (size_t b = 0; b < blocks; ++b) {
    const size_t n = std::min<size_t>(64, keystream.size() - 64 * b);
    s.add_bytes(fmt::format("keystream block {}", b), keystream.subspan(64 * b, n));
    std::memcpy(words[b].data(), keystream.data() + 64 * b, n);
  }
  // Wide code keeps word i of consecutive blocks in neighbouring lanes.
  for (size_t i = 0; i < 16 && blocks > 1; ++i) {
    std::vector<uint32_t> lane(blocks);
    for (size_t b = 0; b < blocks; ++b) lane[b] = words[b][i];
    s.add_words32(fmt::format("keystream word {} across blocks", i), lane);
  }
}

class CipherResidue : public CipherTest {};
INSTANTIATE_TEST_SUITE_P(All, CipherResidue, testing::ValuesIn(cipher_params()), CipherParamName());

TEST_P(CipherResidue, NothingSecretLeftOnTheStack) {
  if (const std::string why = cannot_judge(); !why.empty())
    return why.starts_with("not applicable: ") ? skip_not_applicable(why.substr(16)) : skip_with_reason(why);
  const Bytes key = rng().bytes(32), nonce = rng().bytes(alg().nonce_size);
  const uint32_t counter = rng().u32() & 0xffff;
  for (const size_t len : kCipherLengths) {
    const Bytes msg = rng().bytes(len);
    const Bytes keystream = expected(key, counter, nonce, Bytes(len, 0));
    std::array<uint32_t, 16> state;
    alg().init(state.data(), key.data(), counter, nonce.data());
    residue::Secrets secrets;
    // XChaCha20's state holds the subkey: the key this call is handed.
    add_words_of(secrets, "key", std::span<const uint32_t>(state).subspan(4, 8));
    add_keystream(secrets, keystream);
    secrets.add_bytes("plaintext", msg);
    Bytes out(len);
    Watch w(secrets, fmt::format("crypt, len={}", len));
    alg().crypt(state.data(), out.data(), msg.data(), len, backend());
    judge(*backend(), label(), w);
  }
}

}  // namespace
}  // namespace lockstep::conformance
