#include "module_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "file_kind.h"
#include "host/loader.h"

namespace lockstep::cli {
namespace {

// Prints and returns 2 when `file` exists and is no regular file.
int judge_module_file(const std::string& file, std::string_view given_as) {
  struct stat st;
  // A missing --module is route_modules' to report; a missing item of the
  // variable is reported here, where where it came from is known.
  if (stat(file.c_str(), &st) != 0) {
    if (given_as.empty()) return 0;
    fmt::print(stderr, "lockstep: module {}{}: {}\n", file, given_as, path_kind(file));
    return 2;
  }
  if (S_ISREG(st.st_mode)) return 0;
  fmt::print(stderr, "lockstep: module {}{}: {}, not a shared object file\n", file, given_as,
             file_kind(st.st_mode));
  return 2;
}

}  // namespace

int check_module_files(const std::vector<std::string>& files) {
  for (const std::string& f : files)
    if (const int rc = judge_module_file(f, ""); rc != 0) return rc;
  const char* list = std::getenv(module::kEnvVar.data());
  for (std::string_view rest = list ? list : ""; !rest.empty();) {
    const std::string_view item = rest.substr(0, rest.find(':'));
    rest.remove_prefix(std::min(rest.size(), item.size() + 1));
    if (!item.empty())
      if (const int rc = judge_module_file(std::string(item), fmt::format(" (in {})", module::kEnvVar)); rc != 0)
        return rc;
  }
  return 0;
}

}  // namespace lockstep::cli
