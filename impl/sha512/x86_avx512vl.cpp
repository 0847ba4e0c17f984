// sha512/x86-avx512vl: the two-block schedule of x86_schedule2x.inc with
// the sigmas in AVX-512VL (x86_avx512vl_sigma.inc), still in ymm registers:
// a block's schedule is two words per lane, so zmm would hold four blocks,
// and a single stream has only two to give. The rounds are the same scalar
// RORX code as sha512/x86-avx2's; what changes is the vector work under
// them, which leaves more issue slots to the rounds.
//
// Only the functions below carry the target attribute; the file is
// compiled with baseline flags, so nothing here runs unless dispatch has
// checked the features.
#include <immintrin.h>

#include <array>
#include <bit>
#include <utility>

#include "sha512/constants.h"
#include "sha512/sha512.h"
#include "zeroize.h"

#define LOCKSTEP_SCHEDULE_TARGET __attribute__((target("avx512f,avx512vl,avx2,bmi2")))
#define LOCKSTEP_SCHEDULE_INLINE \
  __attribute__((target("avx512f,avx512vl,avx2,bmi2"), always_inline)) inline

namespace lockstep {
namespace {
namespace avx512vl {

#include "sha512/x86_avx512vl_sigma.inc"
#include "sha512/x86_schedule2x.inc"

}  // namespace avx512vl
}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512X86Avx512vl = {
    {"sha512/x86-avx512vl",
     {cpu::Feature::kAvx512vl, cpu::Feature::kBmi2},  // avx512vl brings avx512f and avx2
     "the two-block AVX2 schedule with AVX-512VL rotates (VPRORQ) and three-way xors (VPTERNLOGQ), "
     "under scalar rounds with BMI2 RORX"},
    avx512vl::wiped_blocks,
};

}  // namespace lockstep
