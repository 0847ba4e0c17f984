// sha512/x86-phe: the Zhaoxin PHE2 engine, REP XSHA512 (F3 0F A6 E0), in
// block mode: sha2/x86_phe.h. SHA-384 is the same instruction started from
// SHA-384's IV; the front end supplies the IV, so one block function serves
// both.
#include "sha2/x86_phe.h"
#include "sha512/sha512.h"

namespace lockstep {

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512X86Phe = {
    {"sha512/x86-phe",
     {cpu::Feature::kPhe2},
     "Zhaoxin PHE2 REP XSHA512 in block mode; needs the PHE2 unit present and "
     "enabled (CPUID 0xC0000001 EDX bits 25 and 26), or the PHE trap emulator"},
    sha2::phe_blocks<sha2::Sha512Family, 0xe0>,
};

}  // namespace lockstep
