// The module host as impl's module source (impl/module_source.h): the
// registries take their module backends from the loader, and a module's
// functions are called through the guard.
#include "host/guard.h"
#include "host/loader.h"

namespace lockstep {
namespace {

constexpr ModuleSource kSource = {
    .backends_of = &module::backends_of,
    .guard = &guarded_call,
    .fail = &module::fail,
};

}  // namespace
}  // namespace lockstep

// Runs as the program starts, ahead of every ordinary static initializer
// (priority 101, the first that programs may use), so that no registry can
// be asked before it. Every program that links lockstep_module_host links
// this file: the library's CMakeLists.txt names the symbol to the linker.
extern "C" [[gnu::constructor(101)]] void lockstep_module_host_install() {
  lockstep::set_module_source(&lockstep::kSource);
}
