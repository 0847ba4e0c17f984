// What every backend descriptor has, whatever the algorithm.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <string_view>

#include "cpu/cpu.h"

namespace lockstep {

// Backend is the algorithm-independent part of a backend descriptor.
// Descriptors are constants defined next to their code, one per file, and
// listed best-first in their algorithm's registry.
struct Backend {
  std::string_view name;   // stable, "<family>/<impl>", e.g. "sha256/x86-shani"
  cpu::FeatureSet needs;   // all must be present for the code to run at all
  std::string_view notes;  // limits and reasons, for `lockstep list`
  // Preference, not safety: on a CPU with any of these, dispatch passes this
  // backend over for the next usable one (prefer_ymm keeps zmm code off the
  // CPUs that the kernel keeps it off). Tests may still run it there.
  cpu::FeatureSet avoid = {};

  // calls counts the front end's entries into this backend, so that dispatch
  // tests can prove which backend ran (BoringSSL's function_hit).
  mutable std::atomic<uint64_t> calls{0};

  // usable is the safety predicate: may this code run with `features`?
  // Preference between usable backends is the registry's order, never this.
  bool usable(cpu::FeatureSet features) const { return features.has_all(needs); }
  // preferred: usable, and nothing in `features` argues against it.
  bool preferred(cpu::FeatureSet features) const {
    return usable(features) && (features.bits() & avoid.bits()) == 0;
  }
  void count_call() const { calls.fetch_add(1, std::memory_order_relaxed); }
};

// select returns the first preferred backend of a best-first registry. The
// last entry of every registry is the generic backend, which needs nothing
// and avoids nothing.
template <class B>
const B* select(std::span<const B* const> registry, cpu::FeatureSet features) {
  for (const B* b : registry)
    if (b->preferred(features)) return b;
  return registry.back();
}

// planted_first is how a registry lets a test binary put one deliberately
// broken backend in front of it (fuzz/planted: proof that the checks have
// teeth). Each registry declares a weak pointer, g_<family>_planted_backend,
// that only such a binary defines, and passes its address here: null, or
// pointing at null, means the registry as it is.
template <auto& Registry, class B>
std::span<const B* const> planted_first(const B* const* planted) {
  if (planted == nullptr || *planted == nullptr) return Registry;
  static const auto with_planted = [planted] {
    std::array<const B*, Registry.size() + 1> all{};
    all[0] = *planted;
    std::copy(Registry.begin(), Registry.end(), all.begin() + 1);
    return all;
  }();
  return with_planted;
}

// find returns the backend called `name`, or nullptr.
template <class B>
const B* find(std::span<const B* const> registry, std::string_view name) {
  for (const B* b : registry)
    if (b->name == name) return b;
  return nullptr;
}

// DefaultBackend caches select() for the effective CPU features and refreshes
// it when a test override changes them.
template <class B>
class DefaultBackend {
 public:
  explicit constexpr DefaultBackend(std::span<const B* const> (*registry)()) : registry_(registry) {}

  const B* get() {
    const uint64_t e = cpu::epoch();
    if (epoch_.load(std::memory_order_acquire) != e) {
      backend_.store(select(registry_(), cpu::effective()), std::memory_order_relaxed);
      epoch_.store(e, std::memory_order_release);
    }
    return backend_.load(std::memory_order_relaxed);
  }

 private:
  std::span<const B* const> (*registry_)();
  std::atomic<const B*> backend_{nullptr};
  std::atomic<uint64_t> epoch_{0};
};

}  // namespace lockstep
