// What declared features let code use, per architecture; no disassembler
// here, so every build (the cross one too) can judge a Scan.
#include <set>
#include <utility>

#include "isa/isa.h"

namespace lockstep::isa {

std::vector<std::string> allowed(const std::vector<std::string>& declared, Arch arch) {
  using Implies = std::vector<std::pair<const char*, std::vector<const char*>>>;
  // GCC's -m (x86-64) and -march=+ext (arm64) implications, which a
  // function compiled for the declared features may use: each line adds
  // what the one above it implies.
  static const Implies x86 = {
      {"avx512vbmi", {"avx512bw"}},
      {"avx512bw", {"avx512f"}},
      {"avx512vl", {"avx512f"}},
      {"avx512f", {"avx2"}},
      {"sha512", {"avx"}},
      {"avx2", {"avx"}},
      {"avx", {"sse4_2"}},
      {"sse4_2", {"sse4_1", "popcnt"}},
      {"sse4_1", {"ssse3"}},
      {"ssse3", {"sse3"}},
      {"sha_ni", {"sse2"}},
  };
  // GCC's +sha2 allows the SHA1 instructions too, but Linux has a
  // separate HWCAP_SHA1 and no lockstep backend declares it: a SHA1
  // instruction stays undeclared, under its own name.
  static const Implies arm64 = {
      {"sha512", {"sha2"}},
      {"sha2", {"asimd"}},
  };
  const bool x = arch == Arch::kX86_64;
  std::set<std::string> out = x ? std::set<std::string>{"sse", "sse2", "mmx", "cmov", "x87"}
                                 : std::set<std::string>{"asimd", "fp"};
  std::set<std::string> have(declared.begin(), declared.end());
  for (const auto& [feature, implied] : x ? x86 : arm64)
    if (have.contains(feature)) have.insert(implied.begin(), implied.end());
  out.insert(have.begin(), have.end());
  return {out.begin(), out.end()};
}

}  // namespace lockstep::isa
