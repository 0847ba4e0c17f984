// The trap host: one SIGILL handler for lockstep's in-process emulators.
//
// Each trap emulator (emulation/phe, emulation/sha512ext) is an entry of one
// list: its LOCKSTEP_EMULATE name, the CPU features it makes executable and
// a decode-and-execute callback over the signal's ucontext. The host owns
// everything around that: the handler, its installation, chaining to the
// handler it replaced, the LOCKSTEP_EMULATE switch and the declaration of
// the features to impl/cpu.
//
// The list is made at configure time from the lockstep_add_trap_emulator()
// calls (CMakeLists.txt), in their order; entry `name` is the constant
// lockstep::<name>::kTrapEmulator, which the emulator defines.
//
// Switch: LOCKSTEP_EMULATE, a comma-separated list of emulator names (items
// trimmed of spaces and tabs, empty items ignored, compared exactly). A name
// that is not in the list is an error naming the known ones: a static
// initializer prints it and exits with status 2 before main. Otherwise the
// same initializer installs the handler, enables the named emulators and
// declares their features with cpu::declare_emulated(), as "<name>-trap",
// before dispatch begins. Link the host and the emulators (OBJECT libraries,
// lockstep_link_trap_emulators() in CMake) directly into each executable.
//
// The handler, for a SIGILL the CPU raised, asks each enabled emulator in
// list order; the first that handles it wins. Any other SIGILL (no emulator
// takes it, or it was sent by kill/raise) is handed on: to the handler the
// host replaced, if that was a function, else the previous disposition is
// put back and the fault happens for real (a sent signal is raised again).
// The handler runs with every signal but the fault signals (SEGV, BUS, FPE,
// TRAP) blocked, so an emulated instruction is atomic as a real one is: a
// signal handler that issues it itself cannot fault with SIGILL blocked.
#pragma once

#include <signal.h>
#include <ucontext.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu.h"

namespace lockstep::trap {

struct Emulator {
  std::string_view name;   // the LOCKSTEP_EMULATE item, and the namespace: "phe"
  std::string_view title;  // for people: "PHE" gives "PHE trap emulator"
  cpu::FeatureSet provides;
  // Readies the emulator, once, outside any handler; returns why it cannot
  // work here, or nullptr. Null: nothing to ready.
  const char* (*prepare)();
  // Decodes the instruction at the trap and performs it on the frame,
  // moving RIP past it; false when it is not this emulator's. Called only
  // for SIGILLs the CPU raised. Async-signal-safe, errno saved by the host.
  bool (*handle)(siginfo_t* info, ucontext_t* uc);
  // Random programs per backend for `lockstep run`'s fuzz cells under this
  // emulator; 0 for the default. A slow emulator asks for fewer.
  int fuzz_runs;
  // What `lockstep run`'s environment hides besides, in LOCKSTEP_CPU's
  // syntax, so that it models the CPUs that have the extension ("-sha_ni":
  // Zhaoxin's have PHE and no SHA-NI, and a kernel glue that finds SHA-NI
  // never reaches its PHE path). Empty: nothing.
  std::string_view cpu_mask = {};
  // The huge column's one call under this emulator, in bytes; 0: the full
  // 2^31 + 131. An emulator that costs a call per instruction asks for a
  // shorter one (the cell says so): the 2 GiB call is the backend's length
  // arithmetic, and runs where the CPU has the extension.
  size_t huge_call_bytes = 0;
  // The CPU the environment is (cpu::declare_identity): what boot_cpu_data
  // and every report say there, on any host. A CPU that has the extension.
  cpu::ModelIdentity identity = {};
};

// emulators lists the emulators linked into this executable, in the order
// of their registration. Pure data: nothing is installed by asking.
std::span<const Emulator* const> emulators();

// find returns the emulator named `name`, or nullptr.
const Emulator* find(std::string_view name);

// id is the name an emulator declares its features under, and the one
// LOCKSTEP_CPU_EMULATED_BY and `lockstep run --env` take: "phe-trap".
std::string id(const Emulator& e);

// known_names is "phe, sha512ext": for error messages.
std::string known_names();

// Request is a parsed LOCKSTEP_EMULATE value.
struct Request {
  std::vector<const Emulator*> enabled;  // in list order, each once
  std::string error;                     // non-empty: the value is rejected
};
Request parse(std::string_view list);

// install enables `e` (its SIGILLs are emulated from now on) and makes the
// host's handler the SIGILL disposition, remembering the previous one the
// first time. Idempotent. Declares nothing: only the LOCKSTEP_EMULATE path
// can, before dispatch. False, with the reason in `error` when given, if the
// emulator cannot work here or sigaction fails. Not thread-safe against a
// concurrent sigaction(SIGILL).
bool install(const Emulator& e, std::string* error = nullptr);

// installed says whether the host's handler is the SIGILL disposition. It
// stops being so after it handed a foreign SIGILL back to SIG_DFL/SIG_IGN.
bool installed();

// enabled says whether the handler performs `e`'s instructions.
bool enabled(const Emulator& e);

// installed_by_environment says whether LOCKSTEP_EMULATE named `e` at
// startup (and so its features were declared).
bool installed_by_environment(const Emulator& e);

}  // namespace lockstep::trap
