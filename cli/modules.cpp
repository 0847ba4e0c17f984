#include "modules.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "cpu/cpu.h"
#include "module/loader.h"

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

int route_modules(const std::vector<std::string>& files) {
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
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(f, ec);
    append(routed()[arch], ec ? f : abs.string());
  }
  setenv(module::kEnvVar.data(), routed()[native].c_str(), 1);
  return 0;
}

std::string modules_for(std::string_view arch) {
  const auto it = routed().find(arch);
  return it == routed().end() ? "" : it->second;
}

}  // namespace lockstep::cli
