// Module backends as impl takes them. Code lockstep did not write comes in
// shared objects shaped by include/lockstep/module.h; the module host
// (host/loader.h) loads and checks them and hands impl what it found
// through one ModuleSource, installed before any registry is asked. impl
// never loads anything: a program that links no host has no module
// backends, and its registries hold lockstep's own.
#pragma once

#include <atomic>
#include <span>
#include <string>
#include <string_view>

#include "cpu/cpu.h"
#include "intercept.h"
#include "lockstep/module.h"

namespace lockstep {

// ModuleBackend is one validated backend of a loaded module.
struct ModuleBackend {
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
  // with the fields its ABI version lacks 0 (host/loader.cpp). The
  // pointers in it are the module's, which stays loaded.
  const lockstep_backend* c = nullptr;
};

// ModuleSource is what the module host lends impl.
struct ModuleSource {
  // Every module backend of `family`, in the order the modules were given;
  // loads the modules the first time it is asked.
  std::span<const ModuleBackend* const> (*backends_of)(std::string_view family);
  // How every function of a module backend is called (the trampoline that
  // guards the caller's registers): a module's code is never called straight.
  Interceptor guard;
  // Reports a module error naming the file, and ends the process (exit 2):
  // it never returns (a pointer cannot say [[noreturn]]; clang refuses it).
  void (*fail)(std::string_view file, std::string_view what);
};

namespace detail {
inline constinit std::atomic<const ModuleSource*> g_module_source{nullptr};
}  // namespace detail

// set_module_source installs the host's source, for the whole process and
// before any registry is asked (the host does it as the program starts).
inline void set_module_source(const ModuleSource* source) {
  detail::g_module_source.store(source, std::memory_order_release);
}
// module_source returns the installed source, or null.
inline const ModuleSource* module_source() { return detail::g_module_source.load(std::memory_order_acquire); }

// module_backends_of returns the module backends of `family`; none without
// a source.
inline std::span<const ModuleBackend* const> module_backends_of(std::string_view family) {
  const ModuleSource* source = module_source();
  return source ? source->backends_of(family) : std::span<const ModuleBackend* const>{};
}

}  // namespace lockstep
