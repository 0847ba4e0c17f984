// The emulators the CLI knows: the in-process trap emulators linked into it
// (emulation/trap's list: LOCKSTEP_EMULATE=phe, =sha512ext) and the outside
// ones a user may run it under and name in LOCKSTEP_CPU_EMULATED_BY (sde,
// qemu).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockstep::cli {

// list_items are the items of a comma-separated list (LOCKSTEP_CPU,
// LOCKSTEP_CPU_EMULATED_BY), trimmed of blanks as impl/cpu and the trap
// host trim them; empty items are dropped.
std::vector<std::string> list_items(std::string_view list);

// runs_outside says whether `name` is an emulator outside the process
// (sde, qemu), which runs all of it: lockstep, and the children it starts
// without a launcher of their own.
bool runs_outside(std::string_view name);

// check_emulation_environment validates LOCKSTEP_CPU_EMULATED_BY before
// dispatch begins (LOCKSTEP_EMULATE is the trap host's, checked before
// main): an unknown name is an error naming the known ones (returns 2). An
// in-process emulator named there ("phe-trap") is installed, so that the
// features LOCKSTEP_CPU declares for it really execute.
// Returns 0 when everything is in order.
int check_emulation_environment();

// emulators_in_effect names the emulators this process runs under: the
// in-process ones that declared features, then those LOCKSTEP_CPU_EMULATED_BY
// names.
std::vector<std::string> emulators_in_effect();

}  // namespace lockstep::cli
