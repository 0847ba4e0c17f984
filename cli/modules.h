// --module: which modules each environment loads. A module is routed by its
// ELF machine: those of this build's architecture go into LOCKSTEP_MODULES,
// which this process and every native or x86-emulated child reads; the
// others wait for the environments whose build targets their architecture
// (the arm64 ones under qemu-aarch64).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockstep::cli {

// route_modules validates `files` (each must exist and be an ELF shared
// object of an architecture lockstep builds for) and adds the native ones to
// LOCKSTEP_MODULES. `native_only` names a command that runs only this
// build's code ("list"): there a module of another architecture is an
// error; empty, it waits for its environments. Call it before anything asks
// a registry. Returns 0, or 2 after printing which file is wrong and why.
int route_modules(const std::vector<std::string>& files, std::string_view native_only);

// modules_for is the LOCKSTEP_MODULES value for a child built for `arch`
// ("x86_64", "arm64"): ':'-separated, possibly empty.
std::string modules_for(std::string_view arch);

}  // namespace lockstep::cli
