// lockstep's Zhaoxin/VIA PadLock Hash Engine trap emulator (x86-64 Linux).
//
// No CPU emulator implements PHE, so this one runs in-process: a SIGILL
// handler decodes REP XSHA1 (F3 0F A6 C8), REP XSHA256 (F3 0F A6 D0) and
// REP XSHA512 (F3 0F A6 E0) at the faulting RIP, performs the instruction on
// the saved registers and memory, and resumes after its 4 bytes. Any other
// SIGILL is the trap host's to hand on.
//
// It is an entry of the trap host's list (emulation/trap): LOCKSTEP_EMULATE=phe
// installs the host's handler, enables this emulator and declares phe and
// phe2 to impl/cpu as emulator "phe-trap", before dispatch begins.
//
// The instruction model (see README.md for the register rules):
//   EAX = -1       block mode: ECX whole blocks (64 bytes; 128 for XSHA512)
//   EAX = n        finalize mode (XSHA1/XSHA256): n bytes already hashed, a
//                  multiple of 64; ECX = total length; the ECX - n remaining
//                  bytes at RSI are hashed and padded
//   ECX = 0        nothing happens, in either mode
//   RDI            the state, host-order words, 16-byte aligned
//   afterwards     RSI += bytes consumed, RCX = 0, RAX = kRaxPoison
// The count is ECX: RCX with bits above 31 set is reported and aborts.
// Misuse the hardware would not survive (a misaligned RDI) or whose result
// nobody documents (EAX not a multiple of 64, EAX > ECX, XSHA512 with EAX !=
// -1) is reported on stderr and aborts.
#pragma once

#include <cstdint>

#include "trap/trap.h"

namespace lockstep::phe {

// The trap host's list entry: "phe", providing phe and phe2.
extern const trap::Emulator kTrapEmulator;

// What RAX holds after an emulated instruction, so code relying on it shows.
inline constexpr uint64_t kRaxPoison = 0xdeadbeefdeadbeefull;

// emulated_instructions counts the instructions the handler performed, so
// tests can tell the emulator ran (and not the hardware or other code).
uint64_t emulated_instructions();

}  // namespace lockstep::phe
