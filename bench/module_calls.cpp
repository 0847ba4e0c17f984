// What the abi guard costs a module backend at 64 bytes: every check calls
// a module's functions through the trampoline (host/guard.h), while
// hash/ and crypt/ call them straight, as they call lockstep's own, so that
// a module's row measures its code. `lockstep bench` shows both.
#include <string>

#include "bench.h"

namespace lockstep::bench {
namespace {

// The length the overhead is judged at: one SHA-256 or ChaCha block, where
// a fixed cost per call weighs most among the lengths a caller sends often.
constexpr size_t kLength = 64;

template <class Algorithm, class Loop>
void register_pair(const Algorithm& a, const Backend& b, Loop loop) {
  const std::string tail = std::string(a.name) + "/" + std::string(b.name) + "/" + std::to_string(kLength);
  benchmark::RegisterBenchmark(("modcall/" + tail + "/guarded").c_str(), [&a, &b, loop](benchmark::State& s) {
    loop(s, a, b, kLength, ModuleCalls::kGuarded);
  });
  benchmark::RegisterBenchmark(("modcall/" + tail + "/direct").c_str(), [&a, &b, loop](benchmark::State& s) {
    loop(s, a, b, kLength, ModuleCalls::kDirect);
  });
}

}  // namespace

void register_module_calls() {
  for (const std::string_view alg : algorithms()) {
    if (const catalog::HashAlgorithm* h = catalog::find_hash(alg)) {
      for (const Backend* b : h->family->backends())
        if (!b->module.empty()) register_pair(*h, *b, digest);
    } else if (const catalog::CipherAlgorithm* c = catalog::find_cipher(alg)) {
      for (const Backend* b : c->family->backends())
        if (!b->module.empty()) register_pair(*c, *b, crypt);
    }
  }
}

}  // namespace lockstep::bench
