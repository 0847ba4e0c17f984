#include "trap/backends.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "catalog.h"

namespace lockstep::trap {

std::vector<const Backend*> backends_for(const Emulator& e) {
  std::vector<const Backend*> out;
  for (const catalog::Family* f : catalog::families())
    for (const Backend* b : f->backends())
      // A kernel glue module declares no needs: its init chooses, possibly
      // the path of what the emulator provides.
      if ((b->needs.bits() & e.provides.bits()) != 0 || (b->kernel_environment && b->needs.bits() == 0))
        out.push_back(b);
  return out;
}

std::vector<std::string> backend_impls_for(const Emulator& e) {
  std::vector<std::string> out;
  for (const Backend* b : backends_for(e)) {
    std::string impl(b->name.substr(b->name.find('/') + 1));
    if (std::find(out.begin(), out.end(), impl) == out.end()) out.push_back(std::move(impl));
  }
  return out;
}

std::string gtest_filter_for(const Emulator& e) {
  std::vector<std::string> patterns;
  for (const Backend* b : backends_for(e)) {
    // test_name("", b) is "_" and the part every algorithm's name ends in.
    const std::string pattern = "*" + catalog::test_name("", *b).substr(1) + "*";
    if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end()) patterns.push_back(pattern);
  }
  std::string out;
  for (const std::string& p : patterns) out += (out.empty() ? "" : ":") + p;
  return out;
}

}  // namespace lockstep::trap
