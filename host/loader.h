// Modules: shared objects that hand lockstep backends it did not write
// (include/lockstep/module.h). Every process that links the module host
// loads the modules named in LOCKSTEP_MODULES once, the first time a
// registry is asked (the host is impl's module source from the start,
// host.cpp), so the CLI, the suites, the fuzzers and the benchmark all see
// the same backends; the CLI's --module only adds to that variable, which
// children inherit.
//
// A module that cannot be used is a usage error: the message names the file
// and the field, and the process exits with status 2 before any check runs.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "module_source.h"

namespace lockstep::module {

inline constexpr std::string_view kEnvVar = "LOCKSTEP_MODULES";

// LoadedBackend is one validated backend of a loaded module, as impl's
// registries take it (impl/module_source.h).
using LoadedBackend = ModuleBackend;

// backends returns every backend of every module in LOCKSTEP_MODULES (a
// ':'-separated list of files), in the order given; empty without it.
std::span<const LoadedBackend> backends();
// backends_of: those of `family`, in the same order.
std::span<const LoadedBackend* const> backends_of(std::string_view family);

// fail reports a module error, "lockstep: module FILE: WHAT", and exits 2.
[[noreturn]] void fail(std::string_view file, std::string_view what);

// Architecture of an ELF file, for callers that must route modules to the
// environment that can load them: "x86_64", "arm64", "" when not ELF.
std::string elf_arch(const std::string& file, std::string* error);

}  // namespace lockstep::module
