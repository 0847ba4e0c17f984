#include "call_log.h"

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "catalog.h"

namespace lockstep::conformance {
namespace {

std::vector<const Backend*> every_backend() {
  std::vector<const Backend*> out;
  for (const catalog::Family* f : catalog::families())
    for (const Backend* b : f->backends()) out.push_back(b);
  return out;
}

}  // namespace

void CallLog::OnTestStart(const testing::TestInfo&) {
  at_start_.clear();
  for (const Backend* b : every_backend()) at_start_.push_back(b->calls.load());
}

void CallLog::OnTestEnd(const testing::TestInfo& t) {
  nlohmann::json calls = nlohmann::json::object();
  const std::vector<const Backend*> all = every_backend();
  for (size_t i = 0; i < all.size() && i < at_start_.size(); ++i)
    if (const uint64_t n = all[i]->calls.load() - at_start_[i]; n > 0) calls[std::string(all[i]->name)] = n;
  const nlohmann::json line = {{"test", std::string(t.test_suite_name()) + "." + t.name()}, {"calls", calls}};
  // Opened per test: the line is on disk before the next test can crash.
  if (FILE* f = std::fopen(path_.c_str(), "a")) {
    std::fprintf(f, "%s\n", line.dump().c_str());
    std::fclose(f);
  }
}

CallLog* call_log_from_environment() {
  const char* path = std::getenv("LOCKSTEP_CALLS");
  return path && *path ? new CallLog(path) : nullptr;
}

}  // namespace lockstep::conformance
