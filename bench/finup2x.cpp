// finup_2x against its sequential equivalent: two 4096-byte messages after a
// shared prefix (dm-verity's salted data blocks), for every backend of every
// algorithm with a finup_2x. Backends without a 2-way path run the front
// end's sequential fallback, so their two rows should match.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "bench.h"
#include "catalog.h"
#include "host/guard.h"

namespace lockstep::bench {
namespace {

// Context is the prefix state, hashed once outside the timed loop, as
// dm-verity keeps its salted context.
struct Context {
  std::vector<uint64_t> storage;  // ctx_align is at most 8
  Context(const catalog::HashAlgorithm& h, const Backend& b, size_t salt_len)
      : storage((h.ctx_size + 7) / 8) {
    const std::vector<uint8_t> salt = bytes(salt_len, 5);
    h.init(data(), &b);
    h.update(data(), salt.data(), salt.size());
  }
  void* data() { return storage.data(); }
};

enum class Kind { kFinup2x, kPair };

void run(benchmark::State& state, const catalog::HashAlgorithm& h, const Backend& b,
         size_t salt_len, Kind kind) {
  if (const std::string why = skip_reason(b); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  state.SetLabel(h.finup_2x_is_optimized(&b) ? "2-way" : "sequential");
  // A module's functions straight, as hash/ calls them (bench.h).
  const DirectModuleCalls direct;
  // dm-verity hashes in a kthread, which saves no user state: no return
  // to user space between calls (bench.h).
  const KernelEntries entries(b);
  Context prefix(h, b, salt_len);
  const std::vector<uint8_t> d1 = bytes(kFinupLength, 6), d2 = bytes(kFinupLength, 7);
  uint8_t o1[64], o2[64];
  if (kind == Kind::kFinup2x) {
    for (auto _ : state) {
      h.finup_2x(prefix.data(), d1.data(), d2.data(), kFinupLength, o1, o2, &b);
      benchmark::DoNotOptimize(o1);
      benchmark::DoNotOptimize(o2);
      benchmark::ClobberMemory();
    }
  } else {
    // What a caller without finup_2x does: copy the prefix context, finish
    // it with one message, and again with the other. The results are the
    // digests of prefix || data.
    Context copy(h, b, 0);
    for (auto _ : state) {
      std::memcpy(copy.data(), prefix.data(), h.ctx_size);
      h.update(copy.data(), d1.data(), kFinupLength);
      h.final(copy.data(), o1);
      std::memcpy(copy.data(), prefix.data(), h.ctx_size);
      h.update(copy.data(), d2.data(), kFinupLength);
      h.final(copy.data(), o2);
      benchmark::DoNotOptimize(o1);
      benchmark::DoNotOptimize(o2);
      benchmark::ClobberMemory();
    }
  }
  entries.count(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 2 * static_cast<int64_t>(kFinupLength));
}

}  // namespace

void register_finup2x() {
  for (const catalog::HashAlgorithm* h : catalog::hash_algorithms()) {
    if (!h->finup_2x || h->name != h->family->name) continue;
    for (const Backend* b : h->family->backends()) {
      for (const size_t salt : kSaltLengths) {
        const std::string tail = std::string(b->name) + "/salt" + std::to_string(salt);
        benchmark::RegisterBenchmark(("finup2x/" + tail).c_str(), [h, b, salt](benchmark::State& s) {
          run(s, *h, *b, salt, Kind::kFinup2x);
        });
        benchmark::RegisterBenchmark(("pair/" + tail).c_str(), [h, b, salt](benchmark::State& s) {
          run(s, *h, *b, salt, Kind::kPair);
        });
      }
    }
  }
}

}  // namespace lockstep::bench
