// lockstep_cpu_report: what the CPU (or the emulated CPU model) reports and
// which backend each algorithm selects. Emulated runs print it before
// programs that do not print it themselves (the fuzz replay drivers), so
// every log says what was actually tested.
#include <cstdio>
#include <string>

#include "catalog.h"

int main() {
  using namespace lockstep;
  std::printf("%s", cpu::report().c_str());
  const cpu::FeatureSet eff = cpu::effective();
  for (const catalog::HashAlgorithm* alg : catalog::hash_algorithms()) {
    std::string usable;
    for (const Backend* b : alg->family->backends())
      if (b->usable(eff)) usable += " " + std::string(b->name);
    const Backend* d = alg->family->default_backend();
    std::printf("%.*s: selected %.*s; usable:%s\n", static_cast<int>(alg->name.size()),
                alg->name.data(), static_cast<int>(d->name.size()), d->name.data(), usable.c_str());
  }
  return 0;
}
