// lockstep's trap emulator for Intel's SHA512 extension (x86-64 Linux).
//
// Few CPUs have SHA512 (Arrow Lake, Lunar Lake) and this host has no Intel
// SDE, so this one runs in-process: a SIGILL handler decodes, at the faulting
// RIP, the VEX-encoded register forms of
//
//   VSHA512RNDS2 ymm1, ymm2, xmm3   VEX.256.F2.0F38.W0 CB /r   (5 bytes)
//   VSHA512MSG1  ymm1, xmm2         VEX.256.F2.0F38.W0 CC /r
//   VSHA512MSG2  ymm1, ymm2         VEX.256.F2.0F38.W0 CD /r
//
// performs the instruction (Intel SDM vol. 2, "Operation") on the vector
// registers the kernel saved in the signal frame, and resumes after it. The
// destination's bits 255:0 are written and, as for every VEX.256
// instruction, its bits above 255 (ZMM_Hi256, on AVX-512 machines) zeroed.
//
// Any other SIGILL is the trap host's to hand on (emulation/trap).
// The three opcodes in forms this emulator does not perform are reported on
// stderr and abort: legacy prefixes before the VEX prefix (not supported),
// and the encodings the hardware rejects with #UD too: memory operands (the
// SDM defines register forms only, ModRM 11:rrr:bbb), VEX.W1, VEX.L0, and
// vvvv other than 1111 for the two-operand VSHA512MSG1/MSG2.
//
// It is an entry of the trap host's list (emulation/trap):
// LOCKSTEP_EMULATE=sha512ext installs the host's handler, after checking that
// signal frames carry the YMM state (XCR0 enables AVX), enables this
// emulator and declares sha512 to impl/cpu as emulator "sha512ext-trap",
// before dispatch begins.
#pragma once

#include <cstdint>

#include "trap/trap.h"

namespace lockstep::sha512ext {

// The trap host's list entry: "sha512ext", providing sha512.
extern const trap::Emulator kTrapEmulator;

// emulated_instructions counts the instructions the handler performed, so
// tests can tell the emulator ran (and not the hardware or other code).
uint64_t emulated_instructions();

// upper_init_frames counts the emulated instructions whose signal frame had
// the YMM upper halves in their initial state (XSTATE_BV bit 2 clear, after
// VZEROUPPER for one): that path reads zeros and must set the bit when it
// writes. Tests use it to see that they reached the path.
uint64_t upper_init_frames();

// stub_instructions counts the instructions that ran through a patched
// site's stub instead of a trap (site_patch.h); emulated_instructions
// includes them. patched_sites counts the sites rewritten so far.
uint64_t stub_instructions();
uint64_t patched_sites();

}  // namespace lockstep::sha512ext
