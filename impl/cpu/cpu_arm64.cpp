// arm64 detection: the kernel's hwcaps, which are exact under qemu-aarch64 too.
#include "cpu/cpu.h"

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>

namespace lockstep::cpu {

Detection detect() {
  Detection det;
  const unsigned long hw = getauxval(AT_HWCAP);
  if (hw & HWCAP_ASIMD) det.features.add(Feature::kAsimd);
  if (hw & HWCAP_SHA2) det.features.add(Feature::kArmSha2);
  if (hw & HWCAP_SHA512) det.features.add(Feature::kArmSha512);
  return det;
}

}  // namespace lockstep::cpu
#endif  // __aarch64__
