// Public entry points of impl/ that the per-backend suites reach only
// through a second composition of their own, or not at all (coverage/:
// the coverage run lists every public function no check called). Each is
// held here to published vectors or the oracle, never to itself.
//
// The suite is not a column of `lockstep run`'s matrix (its name ends in
// none of the per-backend suffixes): it runs once, over every usable backend.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bytes.h"
#include "catalog.h"
#include "chacha/chacha.h"
#include "cpu/cpu.h"
#include "env_value.h"
#include "host/guard.h"
#include "host/loader.h"
#include "host/residue_watch.h"
#include "reference.h"
#include "rng.h"
#include "sha512/sha512.h"
#include "vector_set.h"

namespace lockstep::conformance {
namespace {

testing::AssertionResult bytes_equal(std::span<const uint8_t> got, std::span<const uint8_t> want) {
  if (got.size() == want.size() && std::equal(got.begin(), got.end(), want.begin()))
    return testing::AssertionSuccess();
  return testing::AssertionFailure() << describe_mismatch(got, want);
}

// The ChaCha backends xchacha20() can run here: usable on this CPU, with 20
// rounds, and (for the counters past the wrap) lockstep's wrap.
std::vector<const chacha::ChachaBackend*> xchacha_backends() {
  std::vector<const chacha::ChachaBackend*> out;
  for (const chacha::ChachaBackend* b : chacha::registry())
    if (b->usable(cpu::effective()) && b->supports_rounds(20)) out.push_back(b);
  return out;
}

// Test that the XChaCha20 users call, chacha::xchacha20(), gives the
// answers of the xchacha20 vector files (the draft's known answers, and
// generated ones Crypto++ and OpenSSL agree on) on every backend and
// through the default one. The
// per-backend suites' XChaCha20 rows compose HChaCha20 and ChaCha20 in the
// catalog instead, so they would not see this function break.
TEST(PublicEntryPoints, XChaCha20MatchesTheVectorsOnEveryBackend) {
  const VectorSet& set = vector_set();
  std::vector<const chacha::ChachaBackend*> backends = xchacha_backends();
  backends.push_back(nullptr);  // the default backend
  size_t run = 0;
  for (const LoadedFile* f : set.named("xchacha20")) {
    for (const vectors::ChachaTest& t : f->file.chacha) {
      if (t.result != vectors::Result::kValid) continue;
      ASSERT_EQ(t.key.size(), chacha::kKeySize) << f->display << " tcId " << t.tc_id;
      ASSERT_EQ(t.nonce.size(), chacha::kXNonceSize) << f->display << " tcId " << t.tc_id;
      for (const chacha::ChachaBackend* b : backends) {
        // The files state the RFC 8439 wrap; a module that declared OpenSSL
        // EVP's carry is held to that in ChachaConformance.CounterWrap.
        if (b && b->counter != chacha::Counter::kWrap32 && wraps_past(t.counter, t.msg.size())) continue;
        Bytes got(t.msg.size());
        chacha::xchacha20(t.key.data(), t.nonce.data(), t.counter, got.data(), t.msg.data(),
                          t.msg.size(), b);
        EXPECT_TRUE(bytes_equal(got, t.ct)) << "xchacha20 via " << (b ? b->name : "the default backend")
                                     << ": " << f->display << " tcId " << t.tc_id;
        // In place, as a user decrypting into the same buffer does.
        Bytes buf = t.msg;
        chacha::xchacha20(t.key.data(), t.nonce.data(), t.counter, buf.data(), buf.data(),
                          buf.size(), b);
        EXPECT_TRUE(bytes_equal(buf, t.ct)) << "xchacha20 in place via "
                                     << (b ? b->name : "the default backend") << ": " << f->display
                                     << " tcId " << t.tc_id;
        ++run;
      }
    }
  }
  EXPECT_GT(run, 0u) << "no xchacha20 vector file in " << set.dir.string();
}

// Test that chacha::xchacha20() agrees with the oracle's XChaCha20 on random
// keys, nonces and lengths, from counters anywhere, next to the 32-bit wrap
// included, on every backend that wraps as lockstep does.
TEST(PublicEntryPoints, XChaCha20MatchesTheOracle) {
  const catalog::CipherAlgorithm* alg = catalog::find_cipher("xchacha20");
  ASSERT_NE(alg, nullptr);
  if (!oracle_for(*alg)) GTEST_SKIP() << "no oracle for xchacha20 in this build";
  Rng rng(test_seed());
  for (const chacha::ChachaBackend* b : xchacha_backends()) {
    if (b->counter != chacha::Counter::kWrap32) continue;
    for (int i = 0; i < 24; ++i) {
      const Bytes key = rng.bytes(chacha::kKeySize);
      const Bytes nonce = rng.bytes(chacha::kXNonceSize);
      const size_t len = rng.length(1100);
      const uint32_t counter = rng.coin() ? rng.u32() : UINT32_MAX - static_cast<uint32_t>(rng.below(4));
      const Bytes msg = rng.bytes(len);
      Bytes got(len);
      chacha::xchacha20(key.data(), nonce.data(), counter, got.data(), msg.data(), len, b);
      EXPECT_TRUE(bytes_equal(got, expected_chacha(*alg, key, counter, nonce, msg)))
          << "xchacha20 via " << b->name << ": len=" << len << " counter=" << counter
          << " key=" << hex(key) << " nonce=" << hex(nonce);
    }
  }
}

// Test that a backend's own HChaCha20 (a module's hchacha) runs under the
// residue watch as every other backend function does, and gives the draft's
// subkey there. The residue column derives XChaCha20's subkey before its
// watch begins, so without this no check ran a module's hchacha on the
// watch's stack. Only with modules loaded (LOCKSTEP_MODULES; the coverage
// run loads them): lockstep's own backends use the front end's HChaCha20.
TEST(PublicEntryPoints, OwnHChaCha20RunsUnderTheResidueWatch) {
  std::vector<const chacha::ChachaBackend*> own;
  for (const chacha::ChachaBackend* b : chacha::registry())
    if (b->hchacha != nullptr && b->usable(cpu::effective())) own.push_back(b);
  if (own.empty()) GTEST_SKIP() << "no backend with an hchacha of its own (they come from modules)";
  const VectorSet& set = vector_set();
  size_t run = 0;
  for (const LoadedFile* f : set.named("hchacha20")) {
    for (const vectors::HChachaTest& t : f->file.hchacha) {
      if (t.result != vectors::Result::kValid) continue;
      for (const chacha::ChachaBackend* b : own) {
        std::vector<std::string> watched;
        ResidueWatch watch([&watched](std::string_view function, const residue::Stack&) {
          watched.emplace_back(function);
        });
        uint8_t subkey[chacha::kKeySize];
        chacha::hchacha20(t.key.data(), t.nonce.data(), subkey, b);
        EXPECT_EQ(watched, std::vector<std::string>{"hchacha"}) << b->name;
        EXPECT_TRUE(bytes_equal(subkey, t.subkey)) << b->name << ": " << f->display << " tcId " << t.tc_id;
        ++run;
      }
    }
  }
  EXPECT_GT(run, 0u) << "no hchacha20 vector file in " << set.dir.string();
}

// Test that sha512::registry(), the SHA-512 family's public list, holds
// SHA-512-family backends only, ends with the generic one, and that each
// usable one hashes as the oracle does through the public Sha512 API.
TEST(PublicEntryPoints, Sha512RegistryListsWorkingBackends) {
  const std::span<const Sha512Backend* const> list = sha512::registry();
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(list.back(), &kSha512Generic);
  const catalog::HashAlgorithm* alg = catalog::find_hash("sha512");
  ASSERT_NE(alg, nullptr);
  Rng rng(test_seed());
  const Bytes msg = rng.bytes(300);
  for (const Sha512Backend* b : list) {
    EXPECT_TRUE(b->name.starts_with("sha512/")) << b->name;
    if (!b->usable(cpu::effective())) continue;
    for (const size_t len : {size_t{0}, size_t{3}, size_t{111}, size_t{112}, size_t{128}, size_t{300}}) {
      uint8_t out[Sha512::kDigestSize];
      Sha512::digest(msg.data(), len, out, b);
      EXPECT_TRUE(bytes_equal(out, expected_digest(*alg, std::span(msg).first(len))))
          << "sha512 via " << b->name << ": len=" << len;
    }
  }
}

// Test that the variables' values are read as env_value.h documents them:
// a seed in decimal or 0x-hex up to 2^64 - 1 and nothing else, a switch 0
// or 1, and errors that name the variable and the value.
TEST(PublicEntryPoints, EnvironmentValuesAsDocumented) {
  EXPECT_EQ(env::parse_seed("0"), std::optional<uint64_t>(0));
  EXPECT_EQ(env::parse_seed("18446744073709551615"), std::optional<uint64_t>(UINT64_MAX));
  EXPECT_EQ(env::parse_seed("0x6c6f636b73746570"), std::optional<uint64_t>(0x6c6f636b73746570));
  EXPECT_EQ(env::parse_seed("0XFFFFFFFFFFFFFFFF"), std::optional<uint64_t>(UINT64_MAX));
  for (const char* bad : {"", "0x", "18446744073709551616", "0x10000000000000000", "-1", "+1", " 1",
                          "1 ", "12a", "0xg", "1e3"})
    EXPECT_EQ(env::parse_seed(bad), std::nullopt) << '"' << bad << '"';

  EXPECT_EQ(env::parse_flag("0"), std::optional<bool>(false));
  EXPECT_EQ(env::parse_flag("1"), std::optional<bool>(true));
  for (const char* bad : {"", "2", "01", "true", "yes", " 1"})
    EXPECT_EQ(env::parse_flag(bad), std::nullopt) << '"' << bad << '"';

  EXPECT_TRUE(env::seed_error("12a").starts_with("LOCKSTEP_SEED=12a: ")) << env::seed_error("12a");
  EXPECT_EQ(env::flag_error("LOCKSTEP_REQUIRE_ALL", "2"), "LOCKSTEP_REQUIRE_ALL=2: must be 0 or 1");
}

// Test that DirectModuleCalls holds for its own thread while one is alive,
// nested ones included, and not after (the benchmarks time module code
// without the abi guard this way).
TEST(PublicEntryPoints, DirectModuleCallsIsScopedToItsThread) {
  EXPECT_FALSE(DirectModuleCalls::on());
  {
    const DirectModuleCalls outer;
    EXPECT_TRUE(DirectModuleCalls::on());
    {
      const DirectModuleCalls inner;
      EXPECT_TRUE(DirectModuleCalls::on());
    }
    EXPECT_TRUE(DirectModuleCalls::on()) << "the inner one's end ended the outer one too";
    bool elsewhere = true;
    std::thread([&elsewhere] { elsewhere = DirectModuleCalls::on(); }).join();
    EXPECT_FALSE(elsewhere) << "another thread's module calls went direct";
  }
  EXPECT_FALSE(DirectModuleCalls::on());
}

// The module backends this process loaded and can run here.
std::vector<std::pair<const catalog::Family*, const Backend*>> usable_module_backends() {
  std::vector<std::pair<const catalog::Family*, const Backend*>> out;
  for (const catalog::Family* f : catalog::families())
    for (const Backend* b : f->backends())
      if (!b->module.empty() && b->usable(cpu::effective())) out.emplace_back(f, b);
  return out;
}

// Test that a module's functions called straight (DirectModuleCalls, as
// the benchmarks time them) get the same arguments and give the same
// results as through the guard, which the per-backend suites hold to the
// oracle: every hash, finup_2x, ChaCha and HChaCha function a loaded
// module offers.
TEST(PublicEntryPoints, ModuleCallsGoStraightIntact) {
  const auto modules = usable_module_backends();
  if (modules.empty()) GTEST_SKIP() << "no module backend is loaded (LOCKSTEP_MODULES) that runs here";
  Rng rng(test_seed());
  const std::vector<uint8_t> msg = rng.bytes(300), other = rng.bytes(300);
  const std::vector<uint8_t> key = rng.bytes(32), nonce = rng.bytes(24);
  for (const auto& [f, b] : modules) {
    SCOPED_TRACE(std::string(b->name));
    for (const catalog::HashAlgorithm* h : f->hashes) {
      if (!b->serves(h->name)) continue;
      uint8_t guarded[64], straight[64], g2[2][64], s2[2][64];
      h->digest(msg.data(), msg.size(), guarded, b);
      if (h->finup_2x) h->finup_2x(nullptr, msg.data(), other.data(), msg.size(), g2[0], g2[1], b);
      {
        const DirectModuleCalls direct;
        h->digest(msg.data(), msg.size(), straight, b);
        if (h->finup_2x) h->finup_2x(nullptr, msg.data(), other.data(), msg.size(), s2[0], s2[1], b);
      }
      EXPECT_TRUE(bytes_equal({straight, h->digest_size}, {guarded, h->digest_size})) << h->name;
      if (h->finup_2x) {
        for (int j = 0; j < 2; ++j)
          EXPECT_TRUE(bytes_equal({s2[j], h->digest_size}, {g2[j], h->digest_size})) << h->name << " finup_2x";
      }
    }
    for (const catalog::CipherAlgorithm* c : f->ciphers) {
      if (!b->serves(c->name) || !c->unsupported(b).empty()) continue;
      uint32_t state[16], again[16];
      c->init(state, key.data(), 1, nonce.data());
      std::copy(std::begin(state), std::end(state), std::begin(again));
      std::vector<uint8_t> guarded(msg.size()), straight(msg.size());
      c->crypt(state, guarded.data(), msg.data(), msg.size(), b);
      {
        const DirectModuleCalls direct;
        c->crypt(again, straight.data(), msg.data(), msg.size(), b);
      }
      EXPECT_TRUE(bytes_equal(straight, guarded)) << c->name;
    }
    for (const catalog::SubkeyAlgorithm* k : f->subkeys) {
      std::vector<uint8_t> guarded(k->output_size), straight(k->output_size);
      if (!k->derive_by(b, key.data(), nonce.data(), guarded.data())) continue;
      {
        const DirectModuleCalls direct;
        ASSERT_TRUE(k->derive_by(b, key.data(), nonce.data(), straight.data())) << k->name;
      }
      EXPECT_TRUE(bytes_equal(straight, guarded)) << k->name;
    }
  }
}

// Test that a module error stops the program with status 2 and the message
// loader.h promises: "lockstep: module FILE: WHAT".
TEST(PublicEntryPoints, ModuleFailExitsTwoNamingFileAndWhat) {
  // GoogleTest's default ("fast") style: a fork, no re-exec, so it runs
  // under qemu-user too, where exec'ing the binary needs binfmt_misc.
  EXPECT_EXIT(module::fail("dir/some_module.so", "backend 0: needs: unknown feature 'x'"),
              testing::ExitedWithCode(2),
              "lockstep: module dir/some_module\\.so: backend 0: needs: unknown feature 'x'");
}

}  // namespace
}  // namespace lockstep::conformance
