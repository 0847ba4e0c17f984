// finished_in_log on logs as conformance_tests writes them: the status line
// of `lockstep run` counted 0 until a shard ended, since the log's first
// "[==========]" line (Running ...) was taken for the summary.
#include "run/gtest_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace lockstep::cli {
namespace {

class FinishedInLog : public testing::Test {
 protected:
  std::filesystem::path write(const std::string& text) {
    const std::filesystem::path p =
        std::filesystem::temp_directory_path() / ("gtest_log_test-" + std::to_string(getpid()) + ".log");
    std::ofstream(p) << text;
    paths_.push_back(p);
    return p;
  }
  void TearDown() override {
    for (const auto& p : paths_) std::filesystem::remove(p);
  }
  std::vector<std::filesystem::path> paths_;
};

constexpr const char* kHeader =
    "seed: 0x6c6f636b73746570 (LOCKSTEP_SEED)\n"
    "Note: Google Test filter = All/HashConformance.Hmac/sha512_x86_phe\n"
    "[==========] Running 3 tests from 1 test suite.\n"
    "[----------] Global test environment set-up.\n"
    "[----------] 3 tests from All/HashConformance\n";

TEST_F(FinishedInLog, CountsTestsWhileTheProcessRuns) {
  const std::string log = std::string(kHeader) +
                          "[ RUN      ] All/HashConformance.Hmac/sha512_x86_phe\n"
                          "[       OK ] All/HashConformance.Hmac/sha512_x86_phe (1883 ms)\n"
                          "[ RUN      ] All/HashConformance.Hmac/sha512_224_x86_phe\n"
                          "[  SKIPPED ] All/HashConformance.Hmac/sha512_224_x86_phe (0 ms)\n"
                          "[ RUN      ] All/HashConformance.Threads/sha512_x86_phe\n";
  EXPECT_EQ(finished_in_log(write(log)), 2);
}

TEST_F(FinishedInLog, StopsAtTheSummary) {
  const std::string log = std::string(kHeader) +
                          "[ RUN      ] A.B\n[       OK ] A.B (1 ms)\n"
                          "[ RUN      ] A.C\n[  FAILED  ] A.C (1 ms)\n"
                          "[ RUN      ] A.D\n[  SKIPPED ] A.D (0 ms)\n"
                          "[----------] 3 tests from A (2 ms total)\n\n"
                          "[==========] 3 tests from 1 test suite ran. (2 ms total)\n"
                          "[  PASSED  ] 1 test.\n"
                          "[  SKIPPED ] 1 test, listed below:\n[  SKIPPED ] A.D\n"
                          "[  FAILED  ] 1 test, listed below:\n[  FAILED  ] A.C\n";
  EXPECT_EQ(finished_in_log(write(log)), 3);
}

TEST_F(FinishedInLog, NoLogYet) { EXPECT_EQ(finished_in_log("/nonexistent/lockstep/log"), 0); }

}  // namespace
}  // namespace lockstep::cli
