// lockstep's Zhaoxin/VIA PadLock Hash Engine trap emulator (x86-64 Linux).
//
// No CPU emulator implements PHE, so this one runs in-process: a SIGILL
// handler decodes REP XSHA1 (F3 0F A6 C8), REP XSHA256 (F3 0F A6 D0) and
// REP XSHA512 (F3 0F A6 E0) at the faulting RIP, performs the instruction on
// the saved registers and memory, and resumes after its 4 bytes. Any other
// SIGILL is handed back: the previous disposition is restored and the fault
// happens for real.
//
// Switch: LOCKSTEP_EMULATE, a comma-separated list of in-process emulators
// ("phe"; items are trimmed, other names are left to other emulators). With
// "phe" in it, a static initializer of this library installs the handler and
// declares phe and phe2 to impl/cpu through cpu::declare_emulated(), as
// emulator "phe-trap", before dispatch begins. Link the library (an OBJECT
// library) directly into each executable that wants it.
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
#include <string_view>

namespace lockstep::phe {

// The name given to cpu::declare_emulated() and shown by cpu::report().
inline constexpr std::string_view kEmulatorName = "phe-trap";

// What RAX holds after an emulated instruction, so code relying on it shows.
inline constexpr uint64_t kRaxPoison = 0xdeadbeefdeadbeefull;

// install makes the handler the SIGILL disposition, remembering the previous
// one. Idempotent; false if sigaction fails. It does not declare features
// (only the LOCKSTEP_EMULATE path can, before dispatch). Not thread-safe
// against a concurrent sigaction(SIGILL).
bool install();

// installed says whether the handler is the current SIGILL disposition. It
// stops being so after it handed a foreign SIGILL back.
bool installed();

// installed_by_environment says whether LOCKSTEP_EMULATE asked for "phe" at
// startup (and so the handler was installed and phe/phe2 declared).
bool installed_by_environment();

// emulated_instructions counts the instructions the handler performed, so
// tests can tell the emulator ran (and not the hardware or other code).
uint64_t emulated_instructions();

// requests_phe says whether a LOCKSTEP_EMULATE value names "phe".
bool requests_phe(std::string_view list);

}  // namespace lockstep::phe
