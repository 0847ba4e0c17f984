// sha256/x86-phe: the Zhaoxin/VIA PadLock Hash Engine, REP XSHA256
// (F3 0F A6 D0), in block mode: sha2/x86_phe.h.
#include "sha2/x86_phe.h"
#include "sha256/sha256.h"

namespace lockstep {

// extern: the registry declares it; a header need not.
extern const Sha256Backend kSha256X86Phe = {
    {"sha256/x86-phe",
     {cpu::Feature::kPhe},
     "Zhaoxin/VIA PadLock REP XSHA256 in block mode; needs the PHE unit present "
     "and enabled (CPUID 0xC0000001 EDX bits 10 and 11), or the PHE trap emulator"},
    sha2::phe_blocks<sha2::Sha256Family, 0xd0>,
};

}  // namespace lockstep
