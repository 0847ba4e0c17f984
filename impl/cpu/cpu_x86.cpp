// x86-64 detection: CPUID, XGETBV, and the Centaur/Zhaoxin PadLock leaf.
#include "cpu/cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#include <cstring>

namespace lockstep::cpu {
namespace {

struct Regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

Regs cpuid(unsigned leaf, unsigned subleaf = 0) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.a, r.b, r.c, r.d);
  return r;
}

bool bit(unsigned reg, int n) { return (reg >> n) & 1u; }

// XGETBV faults unless CPUID.1:ECX.OSXSAVE is set, so callers check it first.
__attribute__((target("xsave"))) uint64_t read_xcr0() { return _xgetbv(0); }

// XCR0 bits (Intel SDM vol. 1, 13.3): 1 SSE, 2 AVX (YMM upper halves),
// 5 opmask, 6 ZMM_Hi256, 7 Hi16_ZMM.
constexpr uint64_t kXcr0Ymm = (1u << 1) | (1u << 2);
constexpr uint64_t kXcr0Zmm = kXcr0Ymm | (1u << 5) | (1u << 6) | (1u << 7);

}  // namespace

Detection detect() {
  Detection det;
  FeatureSet& fs = det.features;

  const Regs l0 = cpuid(0);
  const unsigned max_leaf = l0.a;
  char vendor[13] = {};
  std::memcpy(vendor + 0, &l0.b, 4);
  std::memcpy(vendor + 4, &l0.d, 4);
  std::memcpy(vendor + 8, &l0.c, 4);
  det.id.vendor = vendor;

  if (cpuid(0x80000000).a >= 0x80000004) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      Regs r = cpuid(0x80000002 + i);
      std::memcpy(brand + 16 * i + 0, &r.a, 4);
      std::memcpy(brand + 16 * i + 4, &r.b, 4);
      std::memcpy(brand + 16 * i + 8, &r.c, 4);
      std::memcpy(brand + 16 * i + 12, &r.d, 4);
    }
    std::string b = brand;
    while (!b.empty() && b.back() == ' ') b.pop_back();
    while (!b.empty() && b.front() == ' ') b.erase(b.begin());
    det.id.brand = b;
  }
  if (max_leaf < 1) return det;

  const Regs l1 = cpuid(1);
  unsigned family = (l1.a >> 8) & 0xf;
  unsigned model = (l1.a >> 4) & 0xf;
  if (family == 0xf) family += (l1.a >> 20) & 0xff;
  if (family >= 6) model |= ((l1.a >> 16) & 0xf) << 4;
  det.id.family = family;
  det.id.model = model;
  det.id.stepping = l1.a & 0xf;

  if (bit(l1.d, 26)) fs.add(Feature::kSse2);
  if (bit(l1.c, 9)) fs.add(Feature::kSsse3);
  if (bit(l1.c, 19)) fs.add(Feature::kSse41);

  const bool osxsave = bit(l1.c, 27);
  const uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool ymm_ok = (xcr0 & kXcr0Ymm) == kXcr0Ymm;
  const bool zmm_ok = (xcr0 & kXcr0Zmm) == kXcr0Zmm;
  if (bit(l1.c, 28) && ymm_ok) fs.add(Feature::kAvx);

  if (max_leaf >= 7) {
    const Regs l7 = cpuid(7, 0);
    if (bit(l7.b, 8)) fs.add(Feature::kBmi2);
    if (bit(l7.b, 29)) fs.add(Feature::kShaNi);
    if (fs.has(Feature::kAvx) && bit(l7.b, 5)) fs.add(Feature::kAvx2);
    if (zmm_ok && bit(l7.b, 16)) {
      fs.add(Feature::kAvx512f);
      if (bit(l7.b, 31)) fs.add(Feature::kAvx512vl);
      if (bit(l7.b, 30)) fs.add(Feature::kAvx512bw);
      if (bit(l7.c, 1)) fs.add(Feature::kAvx512vbmi);
    }
    // VSHA512* are VEX.256 instructions: they need the YMM state too.
    if (l7.a >= 1 && ymm_ok && bit(cpuid(7, 1).a, 0)) fs.add(Feature::kSha512);
  }

  if (on_zmm_exclusion_list(det.id)) fs.add(Feature::kPreferYmm);

  // PadLock lives in the Centaur leaves, which mean something else (or
  // nothing) on other vendors, so read them only for Centaur and Zhaoxin.
  if (det.id.vendor == "CentaurHauls" || det.id.vendor == "  Shanghai  ") {
    if (cpuid(0xC0000000).a >= 0xC0000001) {
      const Regs c1 = cpuid(0xC0000001);
      // Bit pairs: the unit is present (10, 25) and enabled (11, 26).
      if (family >= 7 && bit(c1.d, 10) && bit(c1.d, 11)) fs.add(Feature::kPhe);
      if (family >= 7 && bit(c1.d, 25) && bit(c1.d, 26)) fs.add(Feature::kPhe2);
    }
  }
  return det;
}

}  // namespace lockstep::cpu
#endif  // __x86_64__
