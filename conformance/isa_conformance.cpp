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
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backend_fixture.h"
#include "catalog.h"
#include "params.h"

#if LOCKSTEP_HAVE_ISA
#include "isa/isa.h"
#endif

namespace lockstep::conformance {
namespace {

// (Unused where the check is not built: no Zydis.)
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

void check_isa(const catalog::Family& family, const Backend& b, const std::string& row) {
#if !LOCKSTEP_HAVE_ISA
  (void)family, (void)b, (void)row;
  return skip_with_reason("no isa check in this build (it needs x86-64 and Zydis, libelf: Debian libzydis-dev, libelf-dev)");
#else
  if (family.code == nullptr)
    return skip_with_reason("the " + std::string(family.name) + " family lists no code entry points");
  // A kernel glue module declares nothing: its init picks among paths for
  // every CPU, so all of them are reachable here. (A single transform of
  // a tree, called as its glue would, declares its needs and is read.)
  if (b.kernel_environment && b.needs.empty())
    return skip_not_applicable(
        "its glue picks a path at init from the CPU (every path is reachable here); the CPU-model environments "
        "check what it selects and run it there");
  // Once per backend: the SHA-224 row reads the same code as SHA-256's.
  static std::mutex mu;
  static std::map<const Backend*, isa::Scan> scans;
  const isa::Scan* s;
  {
    std::lock_guard lock(mu);
    auto it = scans.find(&b);
    if (it == scans.end()) it = scans.emplace(&b, isa::scan(family.code(&b))).first;
    s = &it->second;
  }
  for (const std::string& p : s->problems) std::printf("[ NOTE     ] %s: isa: %s\n", row.c_str(), p.c_str());
  if (s->instructions == 0) return skip_with_reason("none of its code could be read: " + s->problems.front());
  std::printf("[ NOTE     ] %s: isa: %zu functions, %zu instructions read; %zu indirect and %zu external calls "
              "not followed\n",
              row.c_str(), s->functions.size(), s->instructions, s->indirect_calls, s->external_calls);

  const std::vector<std::string> declared = words(b.needs.to_string());
  const std::vector<std::string> allowed = isa::allowed(declared);
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

class HashIsa : public testing::TestWithParam<HashParam> {};
INSTANTIATE_TEST_SUITE_P(All, HashIsa, testing::ValuesIn(hash_params()), HashParamName());

TEST_P(HashIsa, DeclaredExtensionsOnly) {
  const HashParam& p = GetParam();
  check_isa(*p.alg->family, *p.backend, std::string(p.alg->name) + " @ " + std::string(p.backend->name));
}

class CipherIsa : public testing::TestWithParam<CipherParam> {};
INSTANTIATE_TEST_SUITE_P(All, CipherIsa, testing::ValuesIn(cipher_params()), CipherParamName());

TEST_P(CipherIsa, DeclaredExtensionsOnly) {
  const CipherParam& p = GetParam();
  check_isa(*p.alg->family, *p.backend, std::string(p.alg->name) + " @ " + std::string(p.backend->name));
}

}  // namespace
}  // namespace lockstep::conformance
