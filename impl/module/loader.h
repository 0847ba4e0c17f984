// Modules: shared objects that hand lockstep backends it did not write
// (include/lockstep/module.h). Every process loads the modules named in
// LOCKSTEP_MODULES once, the first time a registry is asked, so the CLI, the
// suites, the fuzzers and the benchmark all see the same backends; the CLI's
// --module only adds to that variable, which children inherit.
//
// A module that cannot be used is a usage error: the message names the file
// and the field, and the process exits with status 2 before any check runs.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu.h"
#include "lockstep/module.h"

namespace lockstep::module {

inline constexpr std::string_view kEnvVar = "LOCKSTEP_MODULES";

// LoadedBackend is one validated backend of a loaded module.
struct LoadedBackend {
  std::string file;       // the module's path, as given
  std::string module;     // the module's own name
  std::string full_name;  // "<family>/<name>"
  std::string notes;
  std::string unavailable;  // why it cannot run in this process, or ""
  std::string broken;       // how the module found it broken here, or ""
  std::string algorithms;   // the family's algorithms it is for; "": all
  cpu::FeatureSet needs;
  bool kernel_environment = false;  // the module asks lockstep's kernel host
  // The module's backend in the current layout: a copy of its element,
  // with the fields its ABI version lacks 0 (loader.cpp). The pointers in
  // it are the module's, which stays loaded.
  const lockstep_backend* c;
};

// backends returns every backend of every module in LOCKSTEP_MODULES (a
// ':'-separated list of files), in the order given; empty without it.
std::span<const LoadedBackend> backends();
std::vector<const LoadedBackend*> backends_of(std::string_view family);

// fail reports a module error, "lockstep: module FILE: WHAT", and exits 2.
[[noreturn]] void fail(std::string_view file, std::string_view what);

// Architecture of an ELF file, for callers that must route modules to the
// environment that can load them: "x86_64", "arm64", "" when not ELF.
std::string elf_arch(const std::string& file, std::string* error);

}  // namespace lockstep::module
