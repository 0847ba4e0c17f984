// CPU feature detection and masking.
//
// Backends name features, never CPUID bits. A feature counts only when the
// CPU reports it *and* the OS saves the register state it needs (XCR0), as in
// the kernel's cpu_has_xfeatures() and BoringSSL's cpu_intel.cc.
//
// The environment variable LOCKSTEP_CPU masks the detected set, in the spirit
// of GODEBUG=cpu.x=off and OPENSSL_ia32cap:
//
//   LOCKSTEP_CPU=-sha_ni,-avx2     hide features the CPU has
//   LOCKSTEP_CPU=all=off,+ssse3    start from nothing, keep only what follows
//   LOCKSTEP_CPU=+phe              declare a feature the CPU lacks
//
// Declaring a feature the CPU lacks would let dispatch pick code that faults,
// so it is refused unless LOCKSTEP_CPU_EMULATED_BY names the emulator that
// provides it (for example LOCKSTEP_CPU_EMULATED_BY=sde). The in-process trap
// emulators (emulation/trap, LOCKSTEP_EMULATE=phe or sha512ext) declare
// their features themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lockstep::cpu {

enum class Arch : uint8_t { kX86_64, kArm64, kOther };

enum class Feature : uint8_t {
  // x86-64
  kSse2,
  kSsse3,
  kSse41,
  kAvx,
  kAvx2,
  kBmi2,
  kShaNi,
  kAvx512f,
  kAvx512vl,
  kAvx512bw,
  kAvx512vbmi,
  kSha512,  // Intel SHA512 extension: CPUID.(7,1):EAX[0]
  kPhe,     // Zhaoxin/VIA PadLock Hash Engine: SHA-1/SHA-256 (+ enabled)
  kPhe2,    // PHE2: SHA-384/SHA-512 (+ enabled)
  // A preference, not an instruction set: 512-bit code costs this CPU more
  // than it gains (the kernel's X86_FEATURE_PREFER_YMM), so dispatch passes
  // zmm backends over for their ymm siblings.
  kPreferYmm,
  // arm64
  kAsimd,
  kArmSha2,
  kArmSha512,
  kCount,
};

inline constexpr int kFeatureCount = static_cast<int>(Feature::kCount);

// FeatureSet is a set of features, small enough to pass by value.
class FeatureSet {
 public:
  constexpr FeatureSet() = default;
  constexpr FeatureSet(std::initializer_list<Feature> fs) {
    for (Feature f : fs) bits_ |= bit(f);
  }
  static constexpr FeatureSet from_bits(uint64_t b) {
    FeatureSet s;
    s.bits_ = b;
    return s;
  }

  constexpr bool has(Feature f) const { return (bits_ & bit(f)) != 0; }
  constexpr bool has_all(FeatureSet o) const { return (bits_ & o.bits_) == o.bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint64_t bits() const { return bits_; }
  constexpr void add(Feature f) { bits_ |= bit(f); }
  constexpr void remove(Feature f) { bits_ &= ~bit(f); }
  constexpr FeatureSet operator|(FeatureSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr FeatureSet operator-(FeatureSet o) const { return from_bits(bits_ & ~o.bits_); }
  constexpr bool operator==(const FeatureSet&) const = default;

  // Space-separated feature names, "" when empty.
  std::string to_string() const;

 private:
  static constexpr uint64_t bit(Feature f) { return uint64_t{1} << static_cast<int>(f); }
  uint64_t bits_ = 0;
};

// feature_name returns the name used by LOCKSTEP_CPU and every report
// ("sha_ni", "avx2", ...), as /proc/cpuinfo spells it where it can.
std::string_view feature_name(Feature f);
Arch feature_arch(Feature f);
// is_preference: the feature describes how the CPU performs, not what it
// executes (prefer_ymm), so declaring it can make nothing fault.
bool is_preference(Feature f);
// parse_feature finds a feature by name, of the build's architecture or of
// `arch` (CPU model tables describe both).
std::optional<Feature> parse_feature(std::string_view name);
std::optional<Feature> parse_feature(std::string_view name, Arch arch);
// known_feature_names lists the build architecture's names, for messages.
std::string known_feature_names();

// Features are cumulative: each has at most one prerequisite (avx2 needs
// avx, avx512f needs avx2, sha512 on arm64 needs sha2), as CPUs and the
// kernel's cpuid dependency table have them. closed() drops every feature
// whose prerequisite chain is broken, so hiding avx also hides avx2 and the
// AVX-512 set, and a backend names only its highest feature of each chain.
// with_prerequisites adds every feature's chain: {avx2} -> sse2 .. avx2.
std::optional<Feature> prerequisite(Feature f);
FeatureSet closed(FeatureSet s);
FeatureSet with_prerequisites(FeatureSet s);

constexpr Arch build_arch() {
#if defined(__x86_64__)
  return Arch::kX86_64;
#elif defined(__aarch64__)
  return Arch::kArm64;
#else
  return Arch::kOther;
#endif
}
std::string_view arch_name(Arch a);

// Identification of the CPU, as CPUID leaves 0 and 1 (and the brand
// leaves) report it: what the kernel's boot_cpu_data holds, and what
// reports name.
struct CpuId {
  std::string vendor;  // "AuthenticAMD", "CentaurHauls", ...; "" off x86
  std::string brand;   // brand string where the CPU has one
  unsigned family = 0, model = 0, stepping = 0;
};

// An identity an environment gives the CPU it models, as data (a trap
// emulator's entry: emulation/trap/trap.h): an environment is a CPU, not
// a patch on the host's, so the same environment answers the same on
// every host.
struct ModelIdentity {
  std::string_view vendor;  // CPUID leaf 0's vendor string
  unsigned family = 0, model = 0, stepping = 0;
  std::string_view brand;
};

// Raw hardware view, never masked.
struct Detection {
  CpuId id;
  FeatureSet features;
};

// detect reads the hardware (CPUID + XGETBV, or getauxval on arm64). It does
// not look at the environment.
Detection detect();

// Result of applying a mask to a detected set.
struct MaskResult {
  FeatureSet effective;
  FeatureSet hidden;    // detected, masked off
  FeatureSet declared;  // not detected, declared by the mask
  std::string error;    // non-empty: the mask is rejected, effective unchanged
};

// apply_mask applies the LOCKSTEP_CPU syntax `mask` to `detected`.
// `emulated` says an emulator vouches for declared features.
MaskResult apply_mask(FeatureSet detected, std::string_view mask, bool emulated);

// declare_emulated is called by an in-process emulator (the trap host, for
// each emulator LOCKSTEP_EMULATE enables) that makes `features` executable.
// It must run before the first call of state()/effective() (a static
// initializer does this); a later call aborts, since dispatch may already have chosen.
// Emulated features count as detected and are reported as emulated.
void declare_emulated(FeatureSet features, std::string_view emulator);

// declare_identity is called by an in-process emulator, with declare_emulated
// and under the same rule: before dispatch. The first declared wins.
void declare_identity(const ModelIdentity& identity, std::string_view emulator);

// parse_identity reads LOCKSTEP_CPU_IDENTITY's syntax, VENDOR:FAMILY:MODEL
// or VENDOR:FAMILY:MODEL:STEPPING, where VENDOR is a CPUID vendor string or
// one of intel, amd, zhaoxin, centaur, hygon, and the numbers are decimal or
// 0x-hex ("intel:6:0xa7", "amd:0x17:1", "zhaoxin:7:0x6b"). An error names
// the field and says what it takes.
struct IdentityParse {
  CpuId id;
  std::string error;
};
IdentityParse parse_identity(std::string_view text);

// on_zmm_exclusion_list: the kernel's X86_FEATURE_PREFER_YMM list (Intel
// family 6 parts whose clock drops under 512-bit work): a property of the
// identity, so an environment with another identity follows its own.
bool on_zmm_exclusion_list(const CpuId& id);

// The process-wide view that dispatch uses: the detected set (plus features
// an in-process emulator declared) with LOCKSTEP_CPU applied. A rejected mask prints the reason to stderr and exits with status 2
// on first use: running with a mask the user did not get would be a silent lie.
struct State {
  Detection detection;
  // The CPU's identity in this environment: an in-process emulator's
  // model, else LOCKSTEP_CPU_IDENTITY's (a stand-in for the host's), else
  // the host's (detection.id).
  CpuId identity;
  std::string identity_by;  // "" (the host's), "phe-trap", "LOCKSTEP_CPU_IDENTITY"
  FeatureSet in_process_emulated;  // from declare_emulated()
  std::string in_process_emulator;
  std::string mask;      // LOCKSTEP_CPU as given
  std::string emulated;  // LOCKSTEP_CPU_EMULATED_BY as given
  MaskResult result;
};
const State& state();
FeatureSet effective();
const CpuId& identity();  // state().identity

// Epoch changes whenever the effective set changes (test overrides), so that
// cached dispatch decisions can be refreshed.
uint64_t epoch();

// ScopedOverride replaces the effective set for tests (dispatch tests mask
// features in-process); the previous set returns when it goes out of scope.
// Not thread-safe against concurrent dispatch; use it from the test's thread.
class ScopedOverride {
 public:
  explicit ScopedOverride(FeatureSet s);
  ~ScopedOverride();
  ScopedOverride(const ScopedOverride&) = delete;
  ScopedOverride& operator=(const ScopedOverride&) = delete;

 private:
  std::optional<FeatureSet> previous_;
};

// report returns a few lines: CPU identity, detected, masked and effective
// features.
std::string report();

}  // namespace lockstep::cpu
