// Feature names, LOCKSTEP_CPU parsing and the process-wide effective set.
// Detection itself lives in cpu_x86.cpp / cpu_arm64.cpp.
#include "cpu/cpu.h"

#include "cpu/identity_internal.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace lockstep::cpu {
namespace {

struct FeatureInfo {
  Feature feature;
  Arch arch;
  std::string_view name;
  Feature needs = Feature::kCount;  // the prerequisite; kCount: none
  bool preference = false;
};

// Names follow /proc/cpuinfo where it has one. Prerequisites follow the
// kernel's cpuid-deps.c where it has the pair, and the x86-64 levels
// otherwise (sse2 < ssse3 < sse4_1 < avx < avx2 < avx512f).
constexpr std::array<FeatureInfo, kFeatureCount> kFeatures{{
    {Feature::kSse2, Arch::kX86_64, "sse2"},
    {Feature::kSsse3, Arch::kX86_64, "ssse3", Feature::kSse2},
    {Feature::kSse41, Arch::kX86_64, "sse4_1", Feature::kSsse3},
    {Feature::kAvx, Arch::kX86_64, "avx", Feature::kSse41},
    {Feature::kAvx2, Arch::kX86_64, "avx2", Feature::kAvx},
    {Feature::kBmi2, Arch::kX86_64, "bmi2"},
    {Feature::kShaNi, Arch::kX86_64, "sha_ni", Feature::kSse2},
    {Feature::kAvx512f, Arch::kX86_64, "avx512f", Feature::kAvx2},
    {Feature::kAvx512vl, Arch::kX86_64, "avx512vl", Feature::kAvx512f},
    {Feature::kAvx512bw, Arch::kX86_64, "avx512bw", Feature::kAvx512f},
    {Feature::kAvx512vbmi, Arch::kX86_64, "avx512vbmi", Feature::kAvx512bw},
    {Feature::kSha512, Arch::kX86_64, "sha512", Feature::kAvx},  // VEX.256 only
    {Feature::kPhe, Arch::kX86_64, "phe"},
    {Feature::kPhe2, Arch::kX86_64, "phe2"},
    {Feature::kPreferYmm, Arch::kX86_64, "prefer_ymm", Feature::kCount, true},
    {Feature::kAsimd, Arch::kArm64, "asimd"},
    {Feature::kArmSha2, Arch::kArm64, "sha2", Feature::kAsimd},
    {Feature::kArmSha512, Arch::kArm64, "sha512", Feature::kArmSha2},
}};

static_assert([] {
  for (int i = 0; i < kFeatureCount; ++i) {
    if (static_cast<int>(kFeatures[i].feature) != i) return false;
    // closed() walks once in enum order, so a prerequisite comes first.
    if (kFeatures[i].needs != Feature::kCount && static_cast<int>(kFeatures[i].needs) >= i)
      return false;
  }
  return true;
}(), "kFeatures must be in enum order, each prerequisite before its feature");

}  // namespace

std::string known_feature_names() {
  std::string out;
  for (const auto& f : kFeatures) {
    if (f.arch != build_arch()) continue;
    if (!out.empty()) out += ' ';
    out += f.name;
  }
  return out;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

FeatureSet all_of_arch() {
  FeatureSet s;
  for (const auto& f : kFeatures)
    if (f.arch == build_arch()) s.add(f.feature);
  return s;
}

}  // namespace

std::string FeatureSet::to_string() const {
  std::string out;
  for (const auto& f : kFeatures) {
    if (!has(f.feature)) continue;
    if (!out.empty()) out += ' ';
    out += f.name;
  }
  return out;
}

std::string_view feature_name(Feature f) { return kFeatures[static_cast<int>(f)].name; }
Arch feature_arch(Feature f) { return kFeatures[static_cast<int>(f)].arch; }
bool is_preference(Feature f) { return kFeatures[static_cast<int>(f)].preference; }

std::optional<Feature> parse_feature(std::string_view name, Arch arch) {
  if (arch == Arch::kX86_64 && (name == "shani" || name == "sha")) name = "sha_ni";
  for (const auto& f : kFeatures)
    if (f.arch == arch && f.name == name) return f.feature;
  return std::nullopt;
}

std::optional<Feature> parse_feature(std::string_view name) {
  return parse_feature(name, build_arch());
}

std::optional<Feature> prerequisite(Feature f) {
  const Feature n = kFeatures[static_cast<int>(f)].needs;
  if (n == Feature::kCount) return std::nullopt;
  return n;
}

FeatureSet with_prerequisites(FeatureSet s) {
  // Backwards, so that a prerequisite added here gets its own in turn.
  for (auto f = kFeatures.rbegin(); f != kFeatures.rend(); ++f)
    if (s.has(f->feature) && f->needs != Feature::kCount) s.add(f->needs);
  return s;
}

FeatureSet closed(FeatureSet s) {
  for (const auto& f : kFeatures)
    if (s.has(f.feature) && f.needs != Feature::kCount && !s.has(f.needs)) s.remove(f.feature);
  return s;
}

std::string_view arch_name(Arch a) {
  switch (a) {
    case Arch::kX86_64: return "x86_64";
    case Arch::kArm64: return "arm64";
    case Arch::kOther: break;
  }
  return "other";
}

MaskResult apply_mask(FeatureSet detected, std::string_view mask, bool emulated) {
  MaskResult r;
  FeatureSet eff = detected;
  while (!mask.empty()) {
    size_t cut = mask.find(',');
    std::string_view tok = trim(mask.substr(0, cut));
    mask = cut == std::string_view::npos ? std::string_view{} : mask.substr(cut + 1);
    if (tok.empty()) continue;

    bool on;
    std::string_view name;
    if (tok.front() == '-' || tok.front() == '+') {
      on = tok.front() == '+';
      name = tok.substr(1);
    } else if (size_t eq = tok.find('='); eq != std::string_view::npos) {
      std::string_view value = tok.substr(eq + 1);
      if (value != "on" && value != "off") {
        r.error = "LOCKSTEP_CPU: '" + std::string(tok) + "': the value must be on or off";
        return r;
      }
      on = value == "on";
      name = tok.substr(0, eq);
    } else {
      r.error = "LOCKSTEP_CPU: '" + std::string(tok) +
                "': expected -feature, +feature, feature=off or all=off";
      return r;
    }

    if (name == "all") {
      eff = on ? detected : FeatureSet{};
      continue;
    }
    std::optional<Feature> f = parse_feature(name);
    if (!f) {
      r.error = "LOCKSTEP_CPU: unknown feature '" + std::string(name) + "' (known on " +
                std::string(arch_name(build_arch())) + ": " + known_feature_names() + ")";
      return r;
    }
    if (!on) {
      eff.remove(*f);
      continue;
    }
    // A feature comes with its prerequisites: +avx2 after all=off means the
    // x86-64 level up to avx2, as a CPU with avx2 has it.
    for (std::optional<Feature> g = *f; g; g = prerequisite(*g)) {
      if (!detected.has(*g) && !emulated && !is_preference(*g)) {
        r.error = "LOCKSTEP_CPU: '+" + std::string(name) + "' declares " +
                  (*g == *f ? std::string("a feature") : std::string(feature_name(*g)) + ", which") +
                  " this CPU lacks; code using it would fault. "
                  "Set LOCKSTEP_CPU_EMULATED_BY=<emulator> when an emulator provides it";
        return r;
      }
      eff.add(*g);
    }
  }
  // Only features of this architecture mean anything here, and hiding a
  // feature hides what builds on it.
  eff = closed(eff - (FeatureSet::from_bits(~uint64_t{0}) - all_of_arch()));
  r.effective = eff;
  r.hidden = detected - eff;
  r.declared = eff - detected;
  return r;
}

namespace {

std::atomic<uint64_t> g_epoch{1};
std::atomic<bool> g_state_built{false};
FeatureSet g_declared_emulated;  // constant-initialized: safe before main

// Constructed on first use: an emulator's static initializer may run before
// this file's.
std::string& declared_emulator() {
  static std::string names;
  return names;
}
std::atomic<uint64_t> g_override_bits{0};
std::atomic<bool> g_override_active{false};

const char* env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

void declare_emulated(FeatureSet features, std::string_view emulator) {
  if (g_state_built.load()) {
    std::fprintf(stderr, "lockstep: emulator %.*s declared features after dispatch began\n",
                 static_cast<int>(emulator.size()), emulator.data());
    std::abort();
  }
  g_declared_emulated = g_declared_emulated | features;
  std::string& names = declared_emulator();
  if (!names.empty()) names += ",";
  names += emulator;
}

bool identity_resolved() { return g_state_built.load(); }

const State& state() {
  static const State s = [] {
    g_state_built.store(true);
    State st;
    st.detection = detect();
    ResolvedIdentity identity = resolve_identity(st.detection.id);
    st.identity = std::move(identity.id);
    st.identity_by = std::move(identity.by);
    // PREFER_YMM is the identity's, not the host's: an environment that
    // models another CPU prefers what that CPU prefers.
    if (!st.identity_by.empty()) {
      st.detection.features.remove(Feature::kPreferYmm);
      if (on_zmm_exclusion_list(st.identity)) st.detection.features.add(Feature::kPreferYmm);
    }
    st.in_process_emulated = g_declared_emulated - st.detection.features;
    st.in_process_emulator = declared_emulator();
    st.mask = env_or_empty("LOCKSTEP_CPU");
    st.emulated = env_or_empty("LOCKSTEP_CPU_EMULATED_BY");
    // An in-process emulator vouches for what it provides, which counts as
    // detected here, and for nothing more: +sha512 under the PHE one would
    // let dispatch pick code that faults.
    st.result = apply_mask(st.detection.features | st.in_process_emulated, st.mask,
                           !st.emulated.empty());
    if (st.emulated.empty()) st.emulated = st.in_process_emulator;
    if (!st.result.error.empty()) {
      std::fprintf(stderr, "lockstep: %s\n", st.result.error.c_str());
      std::exit(2);
    }
    return st;
  }();
  return s;
}

FeatureSet effective() {
  if (g_override_active.load(std::memory_order_acquire))
    return FeatureSet::from_bits(g_override_bits.load(std::memory_order_relaxed));
  return state().result.effective;
}

const CpuId& identity() { return state().identity; }

uint64_t epoch() { return g_epoch.load(std::memory_order_acquire); }

ScopedOverride::ScopedOverride(FeatureSet s) {
  if (g_override_active.load()) previous_ = FeatureSet::from_bits(g_override_bits.load());
  g_override_bits.store(s.bits());
  g_override_active.store(true, std::memory_order_release);
  g_epoch.fetch_add(1, std::memory_order_acq_rel);
}

ScopedOverride::~ScopedOverride() {
  if (previous_) {
    g_override_bits.store(previous_->bits());
  } else {
    g_override_active.store(false, std::memory_order_release);
  }
  g_epoch.fetch_add(1, std::memory_order_acq_rel);
}

std::string report() {
  const State& s = state();
  const auto& id = s.identity;
  std::string out = "arch:      " + std::string(arch_name(build_arch())) + "\n";
  if (!id.vendor.empty() || !id.brand.empty()) {
    char fam[96];
    std::snprintf(fam, sizeof fam, " (family %#x, model %#x, stepping %u)", id.family, id.model, id.stepping);
    out += "cpu:       " + id.vendor + (id.brand.empty() ? "" : " " + id.brand) + fam +
           (s.identity_by.empty() ? "" : ", by " + s.identity_by) + "\n";
  }
  if (!s.identity_by.empty() && !s.detection.id.vendor.empty()) {
    char fam[96];
    std::snprintf(fam, sizeof fam, " (family %#x, model %#x)", s.detection.id.family, s.detection.id.model);
    out += "host:      " + s.detection.id.vendor + fam + "\n";
  }
  out += "detected:  " + s.detection.features.to_string() + "\n";
  if (!s.in_process_emulated.empty())
    out += "emulated:  " + s.in_process_emulated.to_string() + " (by " + s.in_process_emulator + ")\n";
  if (!s.mask.empty()) out += "mask:      LOCKSTEP_CPU=" + s.mask + "\n";
  if (!s.emulated.empty() && s.emulated != s.in_process_emulator)
    out += "emulator:  LOCKSTEP_CPU_EMULATED_BY=" + s.emulated + "\n";
  if (!s.result.hidden.empty()) out += "hidden:    " + s.result.hidden.to_string() + "\n";
  if (!s.result.declared.empty()) out += "declared:  " + s.result.declared.to_string() + "\n";
  out += "effective: " + effective().to_string() + "\n";
  return out;
}

}  // namespace lockstep::cpu
