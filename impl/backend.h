// What every backend descriptor has, whatever the algorithm.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu.h"
#include "intercept.h"
#include "module_source.h"

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
  // The module file that supplied this backend; empty for lockstep's own.
  std::string_view module = {};
  // A module built with lockstep's kernel environment: its glue's own init
  // picks the code path from the environment's CPU, so it may pick a path
  // that needs an emulated feature (trap environments run it too).
  bool kernel_environment = false;
  // The backend wipes the secrets it handled (key and state words,
  // keystream, message schedule) from its stack and its own buffers before
  // returning: lockstep's own must, a module's as it declared (module.h's
  // wipes; false for ABI version 1). The residue check reads it.
  bool wipes = true;
  // A module's backend that cannot run in this process, and why (module.h's
  // unavailable: a glue's init did not register it on this CPU). Never
  // usable; every check of it is a SKIP with this reason.
  std::string_view unavailable = {};
  // The family's algorithms the backend is for, space-separated (module.h's
  // algorithms); empty: all of them.
  std::string_view algorithms = {};
  // A module's backend the module found broken here, and how (module.h's
  // broken: a glue whose init crashed). Never usable; every check FAILs.
  std::string_view broken = {};
  // The same code as a whole-message driver (module.h), or null.
  const lockstep_hash_driver* hash_driver = nullptr;
  // A whole-message XChaCha driver (module.h's cipher_driver), or null; the
  // only way in where the backend has no ChaCha function (then unavailable
  // says so, and only CipherDriverConformance calls it).
  const lockstep_cipher_driver* cipher_driver = nullptr;
  // The most bytes one call hands the code under test (module.h's
  // max_call_bytes); 0: the whole length.
  size_t max_call_bytes = 0;
  // The backend ("<family>/<name>") whose driver runs this one's code for
  // every length but init (module.h's same_code_as), or "".
  std::string same_code_as = {};
  // HMAC through the module's code (module.h's mac_driver), or null.
  const lockstep_mac_driver* mac_driver = nullptr;
  // The module's KUnit suite for this backend (module.h's kunit), or null.
  const lockstep_kunit_suite* kunit = nullptr;

  // calls counts the front end's entries into this backend, so that dispatch
  // tests can prove which backend ran (BoringSSL's function_hit). Only
  // while counting_calls() is on: the checks turn it on, and every other
  // caller (bench, `lockstep hash`) is spared a locked add on a line that
  // every thread hashing with this backend would write.
  mutable std::atomic<uint64_t> calls{0};

  // usable is the safety predicate: may this code run with `features`?
  // Preference between usable backends is the registry's order, never this.
  bool usable(cpu::FeatureSet features) const {
    return unavailable.empty() && broken.empty() && features.has_all(needs);
  }
  // serves: `algorithm` is one of those the backend is for.
  bool serves(std::string_view algorithm) const {
    if (algorithms.empty()) return true;
    for (size_t at = 0; at < algorithms.size();) {
      const size_t end = std::min(algorithms.find(' ', at), algorithms.size());
      if (algorithms.substr(at, end - at) == algorithm) return true;
      at = end + 1;
    }
    return false;
  }
  // take_module_fields: what every family's descriptor copies from a
  // loaded module backend.
  void take_module_fields(const ModuleBackend& m) {
    name = m.full_name;
    needs = m.needs;
    notes = m.notes;
    module = m.file;
    kernel_environment = m.kernel_environment;
    wipes = m.c->wipes;
    unavailable = m.unavailable;
    broken = m.broken;
    algorithms = m.algorithms;
    max_call_bytes = m.c->max_call_bytes;
    same_code_as = m.c->same_code_as ? std::string(m.c->family) + "/" + m.c->same_code_as : "";
    mac_driver = m.c->mac_driver;
    kunit = m.c->kunit;
  }
  // preferred: usable, and nothing in `features` argues against it.
  bool preferred(cpu::FeatureSet features) const {
    return usable(features) && (features.bits() & avoid.bits()) == 0;
  }
  void count_call() const {
    if (counting_calls().load(std::memory_order_relaxed)) calls.fetch_add(1, std::memory_order_relaxed);
  }
  // Off until a check binary turns it on, before any backend runs.
  static std::atomic<bool>& counting_calls() {
    static constinit std::atomic<bool> on{false};
    return on;
  }
};

// select returns the first preferred backend of lockstep's own in a
// best-first registry; module backends are never chosen. The last entry of
// every registry is the generic backend, which needs nothing and avoids
// nothing.
template <class B>
const B* select(std::span<const B* const> registry, cpu::FeatureSet features) {
  for (const B* b : registry)
    if (b->module.empty() && b->preferred(features)) return b;
  return registry.back();
}

// assemble_registry lists a family's backends as every check sees them:
//   - a planted backend first, where a test binary defines one: each registry
//     declares a weak pointer, g_<family>_planted_backend, that only the
//     planted fuzz binaries define (proof that the checks have teeth);
//   - lockstep's own, best first;
//   - the backends of loaded modules (module_source.h), which dispatch never
//     selects: code lockstep did not write is checked, never defaulted to;
//   - the generic backend, last.
// A module backend named like one of lockstep's is refused (exit 2).
template <class B>
std::vector<const B*> assemble_registry(std::span<const B* const> own, const B* const* planted,
                                        std::span<const B* const> modules) {
  std::vector<const B*> all;
  if (planted != nullptr && *planted != nullptr) all.push_back(*planted);
  all.insert(all.end(), own.begin(), own.end() - 1);
  for (const B* m : modules) {
    for (const B* o : own)
      if (o->name == m->name)
        module_source()->fail(m->module, std::string(m->name) + " is the name of one of lockstep's backends");
    all.push_back(m);
  }
  all.push_back(own.back());
  return all;
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

// invoke calls `fn`, one of `b`'s functions, with `args`: straight, unless
// an interceptor sees this thread's calls (intercept.h) or the function is
// a module's, which the module source's guard calls.
template <class R, class... Args>
R invoke(const Backend& b, std::string_view function, R (*fn)(Args...),
         std::type_identity_t<Args>... args) {
  Interceptor through = detail::t_interceptor;
  if (through == nullptr) {
    if (b.module.empty()) return fn(args...);
    through = module_source()->guard;
  }
  return detail::intercepted<R, Args...>(through, b, function, fn, args...);
}

}  // namespace lockstep
