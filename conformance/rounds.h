// Round counts. The full counts follow the kernel's KUnit cases. Sanitizer
// builds (ASan makes every access several times slower) define
// LOCKSTEP_CONFORMANCE_QUICK, or GCC's __SANITIZE_ADDRESS__ gives it away;
// they run fewer random rounds but keep every exhaustive loop (all lengths
// up to 4096, all offsets 0..127, all 64 hugelen alignments), since those
// are the ones that find boundary bugs.
#pragma once

namespace lockstep::conformance {

#if defined(LOCKSTEP_CONFORMANCE_QUICK) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool kQuick = true;
#else
inline constexpr bool kQuick = false;
#endif

// rounds picks the full or the quick count.
constexpr int rounds(int full, int quick) { return kQuick ? quick : full; }

}  // namespace lockstep::conformance
