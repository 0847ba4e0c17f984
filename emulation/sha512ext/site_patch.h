// Call-site patching for the SHA512-extension trap emulator.
//
// A trap costs a signal delivery and a sigreturn with the whole XSAVE image
// (several microseconds), and sha512/x86-sha512ext issues 72 instructions
// per block. So, as binary instrumenters do, the first trap at a call site
// also rewrites the 5-byte instruction into a `jmp rel32` to a stub made
// for that site alone; from then on the site costs a call instead of a
// signal:
//
//   lea  -256(%rsp), %rsp          past the red zone, flags untouched
//   vmovdqu %ymmD/S1/S2, 0/32/64(%rsp)
//   movl $opcode, 96(%rsp)
//   call *entry(%rip)              XSAVE, compute, XRSTOR (site_patch.cpp)
//   vmovdqu 0(%rsp), %ymmD         VEX.256: bits 511:256 zeroed, as the
//                                  instruction itself does
//   movq $0, 0/8/16/24/-8(%rsp)    the slot and the return address cleared
//   lea  256(%rsp), %rsp
//   jmp  site + 5
//
// Every register but the destination, RFLAGS, MXCSR and the x87 state come
// back as they were (XRSTOR). The XSAVE image and the computation live on
// a stack of the emulator's own, one per thread, cleared after each use;
// the slots the stub and the routine wrote on the patched code's stack are
// cleared too, so the residue, abi and ct columns see what the hardware
// would leave there: nothing. Threads and signal handlers may run stubs at
// once (a handler's frame nests below the one it interrupted).
//
// Patching a site other threads may be executing: the site is entered in a
// lock-free table first, then its first byte becomes 06 (PUSH ES, #UD in
// 64-bit mode), then the displacement is written, then the first byte
// becomes E9. A thread that meets the site in any of those states traps, and
// the handler finds the site in the table and resumes in its stub. Only one
// thread patches at a time; a handler that finds the lock taken (a nested
// signal, another thread) emulates from the signal frame instead, and the
// site is patched at a later trap.
//
// LOCKSTEP_TRAP_PATCH=0 turns patching off: every execution traps.
#pragma once

#include <cstddef>
#include <cstdint>

// The emulator's stack per thread: room for a few nested frames of an
// XSAVE image (up to 8 KiB) and the computation below it, whose frames a
// sanitizer build makes several times deeper (redzones).
#if defined(__SANITIZE_ADDRESS__)
#define LOCKSTEP_SHA512EXT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define LOCKSTEP_SHA512EXT_SANITIZED 1
#endif
#endif
#if defined(LOCKSTEP_SHA512EXT_SANITIZED)
#define LOCKSTEP_SHA512EXT_STACK_BYTES 262144
#else
#define LOCKSTEP_SHA512EXT_STACK_BYTES 65536
#endif

namespace lockstep::sha512ext::site_patch {

inline constexpr size_t kEmulatorStackBytes = LOCKSTEP_SHA512EXT_STACK_BYTES;
// The computation's own frame below the image; the emulator's test checks
// that every byte it used is cleared, so a deeper frame fails there.
#if defined(LOCKSTEP_SHA512EXT_SANITIZED)
inline constexpr size_t kComputeStackBytes = 16384;
#else
inline constexpr size_t kComputeStackBytes = 2048;
#endif

// The stub's callee: `slots` holds the destination, the first and the second
// source (32 bytes each) and the opcode (at byte 96); the result goes to the
// first slot. The emulator supplies it.
using Compute = void (*)(uint8_t* slots);

// prepare reads the XSAVE layout and the switch, and keeps `compute` for
// the stubs; false when patching is off or cannot work here (then every
// site keeps trapping). Not in a handler.
bool prepare(Compute compute);

// switch_error says what is wrong with LOCKSTEP_TRAP_PATCH (it takes 0 or
// 1), naming the variable and its value; nullptr when it is unset or good.
const char* switch_error();

// stub_for returns the stub of a patched (or half-patched) site, or 0.
// Async-signal-safe.
uintptr_t stub_for(uintptr_t site);

// patch makes a stub for the 5-byte instruction at `site` and rewrites the
// site to jump to it. `opcode` is the instruction's third opcode byte (CB,
// CC, CD); for the two-operand forms src2 repeats src1. False when it did
// not patch (lock taken, no memory near the site, mprotect refused).
// Async-signal-safe; call it from the SIGILL handler with signals blocked.
bool patch(uintptr_t site, uint8_t opcode, int dst, int src1, int src2);

// patched_sites counts the sites rewritten.
uint64_t patched_sites();

}  // namespace lockstep::sha512ext::site_patch
