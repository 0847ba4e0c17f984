// What the trap emulators' tests share: the death tests' helpers and the
// question whether the hardware, not the emulator, runs an instruction.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpu/cpu.h"

namespace lockstep::trap::testing {

// native says whether the CPU itself has `f`: then the instruction runs
// natively and the emulator never sees it.
inline bool native(cpu::Feature f) {
  static const cpu::FeatureSet detected = cpu::detect().features;
  return detected.has(f);
}

// no_core keeps a death test's child from writing a core file.
inline void no_core() {
  rlimit none{0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

// Foreign SIGILLs: a faulting instruction no emulator takes, and one sent
// (nothing to decode). Both must still kill.
inline void ud2() {
  no_core();
  __asm__ __volatile__("ud2");
}
inline void raise_sigill() {
  no_core();
  raise(SIGILL);
}

// previous_handler stands for the handler the host replaced: it says so and
// exits with 3 for a SIGILL the CPU raised, 4 for one sent.
inline void previous_handler(int, siginfo_t* info, void*) {
  const char msg[] = "previous handler ran\n";
  (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
  _exit(info->si_code > 0 ? 3 : 4);
}

// become_previous makes previous_handler (SA_SIGINFO) or a plain handler
// that exits with 3 the SIGILL disposition, for the host to replace.
inline void become_previous(bool siginfo) {
  struct sigaction sa = {};
  if (siginfo) {
    sa.sa_sigaction = previous_handler;
    sa.sa_flags = SA_SIGINFO;
  } else {
    sa.sa_handler = [](int) {
      const char msg[] = "previous handler ran\n";
      (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
      _exit(3);
    };
  }
  sigaction(SIGILL, &sa, nullptr);
}

}  // namespace lockstep::trap::testing
