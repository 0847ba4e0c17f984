// The isa column: the code each backend supplies is disassembled (isa/,
// without running it, so backends this CPU cannot run are checked too),
// following its direct calls, and every extension it uses must be one its
// `needs` declare or imply. An undeclared one fails the row, naming the
// instruction, its address and its function: on a CPU without it, dispatch
// would pick the backend and the caller would get SIGILL. A declared
// extension no instruction uses is a note in the log.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backend_fixture.h"
#include "catalog.h"
#include "cpu_models.h"
#include "params.h"
#include "reference.h"
#include "rng.h"

// Natively on x86-64 the engine reads this process's memory (isa/scan.cpp);
// in the aarch64 build the host's arm64_reader reads this build's files.
#if LOCKSTEP_HAVE_ISA
#include "isa/isa.h"
#elif LOCKSTEP_HAVE_ISA_READER
#include "isa/reader_client.h"
#endif

namespace lockstep::conformance {
namespace {

// (Unused where the check is not built.)
[[maybe_unused]] std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  for (size_t at = 0; at < s.size();) {
    const size_t sp = s.find(' ', at);
    const size_t end = sp == std::string::npos ? s.size() : sp;
    if (end > at) out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

#if LOCKSTEP_HAVE_ISA || LOCKSTEP_HAVE_ISA_READER
// The Scan of a backend's code, once per backend (the SHA-224 row reads
// the same code as SHA-256's); nullopt with `why` where it cannot be had.
const isa::Scan* scan_of(const catalog::Family& family, const Backend& b, std::string* why) {
  static std::mutex mu;
  static std::map<const Backend*, std::optional<isa::Scan>> scans;
  static std::map<const Backend*, std::string> reasons;
  std::lock_guard lock(mu);
  auto it = scans.find(&b);
  if (it == scans.end()) {
#if LOCKSTEP_HAVE_ISA
    it = scans.emplace(&b, isa::scan(family.code(&b))).first;
#else
    it = scans.emplace(&b, isa::scan_with_reader(family.code(&b), &reasons[&b])).first;
#endif
  }
  if (!it->second) *why = reasons[&b];
  return it->second ? &*it->second : nullptr;
}
#endif

void check_isa(const catalog::Family& family, const Backend& b, const std::string& row) {
#if !LOCKSTEP_HAVE_ISA && !LOCKSTEP_HAVE_ISA_READER
  (void)family, (void)b, (void)row;
  return skip_with_reason("no isa check in this build (it needs x86-64 and Zydis, libelf: Debian libzydis-dev, "
                          "libelf-dev; or the aarch64 build and the host's arm64_reader)");
#else
  if (family.code == nullptr)
    return skip_with_reason("the " + std::string(family.name) + " family lists no code entry points");
  // A glue module declares nothing: a kernel's init picks among paths for
  // every CPU, so all of them are reachable here; U-Boot's glue calls its
  // one path on every CPU, as its board's Kconfig chose. (A single
  // transform of a tree, called as its glue would, declares its needs and
  // is read.)
  if (b.kernel_environment && b.needs.empty())
    return skip_not_applicable(
        "its glue picks its path itself (a kernel's at init from the CPU, U-Boot's by Kconfig), so it declares no "
        "needs; the CPU-model environments run what it picks (the tree's one-function rows are read)");
  std::string why;
  const isa::Scan* s = scan_of(family, b, &why);
  if (s == nullptr) return skip_with_reason(why);
  for (const std::string& p : s->problems) std::printf("[ NOTE     ] %s: isa: %s\n", row.c_str(), p.c_str());
  if (s->instructions == 0) return skip_with_reason("none of its code could be read: " + s->problems.front());
  std::printf("[ NOTE     ] %s: isa: %zu functions, %zu instructions read; %zu indirect and %zu external calls "
              "not followed\n",
              row.c_str(), s->functions.size(), s->instructions, s->indirect_calls, s->external_calls);

  const std::vector<std::string> declared = words(b.needs.to_string());
  const isa::Arch arch = cpu::build_arch() == cpu::Arch::kArm64 ? isa::Arch::kArm64 : isa::Arch::kX86_64;
  const std::vector<std::string> allowed = isa::allowed(declared, arch);
  for (const auto& [extension, use] : s->uses) {
    if (std::find(allowed.begin(), allowed.end(), extension) != allowed.end()) continue;
    ADD_FAILURE() << row << ": isa: uses " << extension << ", which its needs ("
                  << (declared.empty() ? "none" : b.needs.to_string()) << ") do not declare: " << use.mnemonic
                  << " at " << fmt::format("{:#x}", use.address) << " (" << use.where << ")";
  }
  for (const std::string& d : declared) {
    if (d == "prefer_ymm" || s->uses.contains(d)) continue;
    std::printf("[ NOTE     ] %s: isa: declares %s, which no instruction read uses\n", row.c_str(), d.c_str());
  }
#endif
}

// The dynamic proof: the backend run on a CPU model that has exactly the
// features its needs declare (with their prerequisites; x86-64's SSE2
// baseline for a backend that needs nothing), so that any instruction of an
// extension it did not declare faults. Natively the case names that model;
// under it, the backend runs. QEMU executes neither SHA-NI nor AVX-512, so
// backends needing those have no such model (the static read covers them).
cpu::FeatureSet exact_features(const Backend& b) {
  cpu::FeatureSet s = b.needs;
  if (cpu::build_arch() == cpu::Arch::kX86_64) s.add(cpu::Feature::kSse2);
  if (cpu::build_arch() == cpu::Arch::kArm64) s.add(cpu::Feature::kAsimd);
  return cpu::with_prerequisites(s);
}

const models::Model* exact_model(const Backend& b) {
  for (const models::Model& m : models::table().models)
    if (m.arch == cpu::build_arch() && m.emulator.starts_with("qemu") && m.features == exact_features(b)) return &m;
  return nullptr;
}

// Returns true when the backend is to be run here; else it has skipped.
bool on_exact_model(const Backend& b) {
  if (module_declines(b)) return false;
  const models::Model* want = exact_model(b);
  const char* id = std::getenv("LOCKSTEP_CPU_MODEL");
  if (want == nullptr) {
    skip_with_reason("no QEMU CPU model has exactly its needs {" + exact_features(b).to_string() +
                     "} (emulation/cpu_models.json); the static read stands alone");
    return false;
  }
  if (id == nullptr || *id == '\0') {
    skip_not_applicable("runs under " + want->id + ", the CPU model with exactly its needs");
    return false;
  }
  if (want->id != id) {
    skip_not_applicable("runs under " + want->id + ", the CPU model with exactly its needs, not under " + id);
    return false;
  }
  std::printf("[ NOTE     ] %s runs under %s {%s}: an undeclared instruction faults here\n",
              std::string(b.name).c_str(), id, want->features.to_string().c_str());
  return true;
}

class HashIsa : public testing::TestWithParam<HashParam> {};
INSTANTIATE_TEST_SUITE_P(All, HashIsa, testing::ValuesIn(hash_params()), HashParamName());

TEST_P(HashIsa, DeclaredExtensionsOnly) {
  const HashParam& p = GetParam();
  check_isa(*p.alg->family, *p.backend, std::string(p.alg->name) + " @ " + std::string(p.backend->name));
}

// Test that the backend runs, with the right digests, on the CPU model that
// has exactly its declared features: digest and finup_2x over lengths
// across block boundaries.
TEST_P(HashIsa, RunsOnExactlyItsNeeds) {
  const HashParam& p = GetParam();
  if (!on_exact_model(*p.backend)) return;
  Rng rng(test_seed());
  const Bytes msg = rng.bytes(600);
  for (size_t len = 0; len <= msg.size(); len += 37) {
    const std::span<const uint8_t> m(msg.data(), len);
    Bytes got(p.alg->digest_size);
    p.alg->digest(m.data(), m.size(), got.data(), p.backend);
    ASSERT_EQ(hex(got), hex(expected_digest(*p.alg, m))) << "digest, len " << len;
    if (p.alg->finup_2x == nullptr) continue;
    Bytes o1(p.alg->digest_size), o2(p.alg->digest_size);
    p.alg->finup_2x(nullptr, m.data(), m.data(), m.size(), o1.data(), o2.data(), p.backend);
    ASSERT_EQ(hex(o1), hex(got)) << "finup_2x, len " << len;
    ASSERT_EQ(hex(o2), hex(got)) << "finup_2x, len " << len;
  }
}

class CipherIsa : public testing::TestWithParam<CipherParam> {};
INSTANTIATE_TEST_SUITE_P(All, CipherIsa, testing::ValuesIn(cipher_params()), CipherParamName());

TEST_P(CipherIsa, DeclaredExtensionsOnly) {
  const CipherParam& p = GetParam();
  check_isa(*p.alg->family, *p.backend, std::string(p.alg->name) + " @ " + std::string(p.backend->name));
}

// Test that the backend runs, with the right output, on the CPU model that
// has exactly its declared features, at lengths across its block tiers.
TEST_P(CipherIsa, RunsOnExactlyItsNeeds) {
  const CipherParam& p = GetParam();
  if (!on_exact_model(*p.backend)) return;
  Rng rng(test_seed());
  const Bytes key = rng.bytes(32), nonce = rng.bytes(p.alg->nonce_size), msg = rng.bytes(1100);
  for (size_t len = 0; len <= msg.size(); len += 61) {
    const std::span<const uint8_t> m(msg.data(), len);
    uint32_t state[16];
    p.alg->init(state, key.data(), 1, nonce.data());
    Bytes got(len);
    p.alg->crypt(state, got.data(), m.data(), len, p.backend);
    ASSERT_EQ(hex(got), hex(expected_chacha(*p.alg, key, 1, nonce, m))) << "crypt, len " << len;
  }
}

}  // namespace
}  // namespace lockstep::conformance
