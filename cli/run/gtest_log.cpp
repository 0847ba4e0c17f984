#include "run/gtest_log.h"

#include <fstream>
#include <string>

namespace lockstep::cli {

int finished_in_log(const std::filesystem::path& log) {
  std::ifstream in(log);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    // "[==========] 58 tests from 3 test suites ran.": the summary follows.
    if (line.starts_with("[==========]") && !line.starts_with("[==========] Running ")) break;
    n += line.starts_with("[       OK ]") || line.starts_with("[  FAILED  ]") || line.starts_with("[  SKIPPED ]");
  }
  return n;
}

}  // namespace lockstep::cli
