// LOCKSTEP_CALLS=<file>: how often each test entered each backend through
// the front ends, so that `lockstep run` can say, cell by cell, that the
// code it judged really ran there. One JSON object per line, written as
// each test ends (a process that dies mid-run keeps the lines of the tests
// it finished), appended (a shard run again after a crash adds its own):
//
//   {"test":"All/HashVectors.Files/sha224_generic","calls":{"sha256/generic":412}}
//
// Only backends the test entered are listed; a test that entered none has
// "calls":{}.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lockstep::conformance {

class CallLog : public testing::EmptyTestEventListener {
 public:
  explicit CallLog(std::string path) : path_(std::move(path)) {}

  void OnTestStart(const testing::TestInfo& t) override;
  void OnTestEnd(const testing::TestInfo& t) override;

 private:
  std::string path_;
  std::vector<uint64_t> at_start_;  // every backend's count, in catalog order
};

// call_log_from_environment returns a CallLog when LOCKSTEP_CALLS names a
// file, else nullptr (the listener list takes ownership).
CallLog* call_log_from_environment();

}  // namespace lockstep::conformance
