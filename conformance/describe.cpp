#include "describe.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "catalog.h"
#include "host/kernel_host.h"
#include "params.h"
#include "rng.h"

namespace lockstep::conformance {

namespace {

// As LOCKSTEP_SEED takes it back.
std::string seed_text() {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, base_seed());
  return buf;
}

// Why `b` does not run `alg` at all (a module backend that cannot run
// here, one that declares only some ChaCha round counts), or "". A
// backend for other algorithms of its family has no row (params.h).
std::string declined(const catalog::HashAlgorithm&, const Backend& b) { return std::string(b.unavailable); }
std::string declined(const catalog::CipherAlgorithm& alg, const Backend& b) {
  // A whole-message driver runs its own tests; the rest skip, saying why.
  if (b.cipher_driver != nullptr) return "";
  return b.unavailable.empty() ? alg.unsupported(&b) : std::string(b.unavailable);
}

}  // namespace

nlohmann::json describe() {
  const cpu::FeatureSet eff = cpu::effective();
  nlohmann::json rows = nlohmann::json::array();
  nlohmann::json selected = nlohmann::json::object();
  auto add = [&](const auto& alg, const Backend& b) {
    rows.push_back({
        {"algorithm", alg.name},
        {"backend", b.name},
        {"test_name", param_name(alg, b)},
        {"usable", b.usable(eff)},
        {"needs", b.needs.to_string()},
        {"missing", (b.needs - eff).to_string()},
        {"default", alg.family->default_backend() == &b},
        {"declined", declined(alg, b)},
        {"broken", std::string(b.broken)},  // a module's backend it found broken here
        // Reached only through its whole-message cipher driver: why the
        // checks that call the ChaCha function do not apply, or "".
        {"driver_only", b.cipher_driver != nullptr ? std::string(b.unavailable) : std::string()},
        {"module", std::string(b.module)},  // the file of a module's backend, else ""
    });
    selected[std::string(alg.name)] = alg.family->default_backend()->name;
  };
  for (const HashParam& p : hash_params()) add(*p.alg, *p.backend);
  for (const CipherParam& p : cipher_params()) add(*p.alg, *p.backend);
  const cpu::State& s = cpu::state();
  return {
      {"arch", cpu::arch_name(cpu::build_arch())},
      {"seed", seed_text()},
      {"cpu",
       {{"vendor", s.identity.vendor},
        {"brand", s.identity.brand},
        {"family", s.identity.family},
        {"model", s.identity.model},
        {"stepping", s.identity.stepping},
        {"identity_by", s.identity_by},
        {"detected", s.detection.features.to_string()},
        {"emulated", s.in_process_emulated.to_string()},
        {"effective", eff.to_string()},
        {"mask", s.mask},
        {"report", cpu::report()}}},
      {"selected", selected},
      // What the init of kernel code in modules selected here, as the
      // kernel would on this CPU (lockstep/kernel_host.h).
      {"kernel_selected", module::kernel::selections()},
      {"rows", rows},
  };
}

}  // namespace lockstep::conformance
