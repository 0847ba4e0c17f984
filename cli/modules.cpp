#include "modules.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "cpu/cpu.h"
#include "host/loader.h"

namespace lockstep::cli {
namespace {

// Per architecture, the modules given on the command line (absolute paths:
// children run in other directories).
std::map<std::string, std::string, std::less<>>& routed() {
  static std::map<std::string, std::string, std::less<>> m;
  return m;
}

void append(std::string& list, const std::string& file) {
  if (!list.empty()) list += ':';
  list += file;
}

}  // namespace

int route_modules(const std::vector<std::string>& files, std::string_view native_only) {
  const std::string native(cpu::arch_name(cpu::build_arch()));
  const char* inherited = std::getenv(module::kEnvVar.data());
  routed()[native] = inherited ? inherited : "";
  for (const std::string& f : files) {
    std::string error;
    const std::string arch = module::elf_arch(f, &error);
    if (!error.empty()) {
      std::fprintf(stderr, "lockstep: module %s: %s\n", f.c_str(), error.c_str());
      return 2;
    }
    if (arch != native && !native_only.empty()) {
      std::fprintf(stderr,
                   "lockstep: module %s: built for %s, and `lockstep %.*s` runs %s code only "
                   "(`lockstep run` takes it to the %s environments)\n",
                   f.c_str(), arch.c_str(), static_cast<int>(native_only.size()), native_only.data(),
                   native.c_str(), arch.c_str());
      return 2;
    }
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(f, ec);
    append(routed()[arch], ec ? f : abs.string());
  }
  setenv(module::kEnvVar.data(), routed()[native].c_str(), 1);
  // Load them now: a bad module stops here, with its file and field named
  // (exit 2), not in a child whose status the command would have to relay.
  module::backends();
  return 0;
}

std::string modules_for(std::string_view arch) {
  const auto it = routed().find(arch);
  return it == routed().end() ? "" : it->second;
}

}  // namespace lockstep::cli
