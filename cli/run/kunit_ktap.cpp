#include "run/kunit_ktap.h"

#include <fstream>
#include <string>

namespace lockstep::cli {

namespace {

// A suite's KTAP as its test recorded it, numbered 1: its last line, the
// suite's own result ("ok 1 sha256"), takes number n.
std::string numbered(std::string ktap, int n) {
  while (!ktap.empty() && ktap.back() == '\n') ktap.pop_back();
  const size_t last = ktap.rfind('\n') + 1;  // npos + 1 == 0: one line
  std::string line = ktap.substr(last);
  const std::string ok = line.starts_with("not ok ") ? "not ok " : "ok ";
  if (line.starts_with(ok)) {
    const size_t end = line.find(' ', ok.size());
    line = ok + std::to_string(n) + (end == std::string::npos ? "" : line.substr(end));
  }
  return ktap.substr(0, last) + line + "\n";
}

}  // namespace

int write_ktap(const std::filesystem::path& file, const std::vector<TestOutcome>& outcomes) {
  std::string body;
  int n = 0;
  for (const TestOutcome& t : outcomes)
    if (!t.ktap.empty()) body += numbered(t.ktap, ++n);
  if (n == 0) return 0;
  std::ofstream(file) << "KTAP version 1\n1.." << n << "\n" << body;
  return n;
}

}  // namespace lockstep::cli
