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
// Any other SIGILL is handed on: to the handler this one replaced, if that
// was a function (so another trap emulator installed earlier still works),
// else the previous disposition is restored and the fault happens for real.
// The three opcodes in forms this emulator does not perform are reported on
// stderr and abort: legacy prefixes before the VEX prefix (not supported),
// and the encodings the hardware rejects with #UD too: memory operands (the
// SDM defines register forms only, ModRM 11:rrr:bbb), VEX.W1, VEX.L0, and
// vvvv other than 1111 for the two-operand VSHA512MSG1/MSG2.
//
// Switch: LOCKSTEP_EMULATE, a comma-separated list of in-process emulators
// (items trimmed, compared exactly; other names are left to other
// emulators). With "sha512ext" in it, a static initializer of this library
// installs the handler and declares sha512 to impl/cpu through
// cpu::declare_emulated(), as emulator "sha512ext-trap", before dispatch
// begins. Link the library (an OBJECT library) directly into each executable
// that wants it.
#pragma once

#include <cstdint>
#include <string_view>

namespace lockstep::sha512ext {

// The name given to cpu::declare_emulated() and shown by cpu::report().
inline constexpr std::string_view kEmulatorName = "sha512ext-trap";

// install makes the handler the SIGILL disposition, remembering the previous
// one, after checking that signal frames carry the YMM state (XCR0 enables
// AVX). Idempotent; false if that or sigaction fails. It does not declare
// features (only the LOCKSTEP_EMULATE path can, before dispatch). Not
// thread-safe against a concurrent sigaction(SIGILL).
bool install();

// installed says whether the handler is the current SIGILL disposition. It
// stops being so after it handed a foreign SIGILL back to SIG_DFL/SIG_IGN.
bool installed();

// installed_by_environment says whether LOCKSTEP_EMULATE asked for
// "sha512ext" at startup (and so the handler was installed and sha512
// declared).
bool installed_by_environment();

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

// requests_sha512ext says whether a LOCKSTEP_EMULATE value names "sha512ext".
bool requests_sha512ext(std::string_view list);

}  // namespace lockstep::sha512ext
