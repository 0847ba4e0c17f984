// What `lockstep run` found, per environment, and the formats other tools
// read it in: JUnit XML (GitLab, GitHub and most CI systems) and KTAP v1
// (the kernel's format, one nested subtest per environment).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/gtest_results.h"
#include "run/matrix.h"

namespace lockstep::cli {

struct FailedTest {
  TestOutcome outcome;
  std::string reproduce;  // one shell command that runs this test again
};

struct EnvReport {
  std::string id, name;
  bool ran = false;  // false: the environment did not run, `status` says why
  bool not_selected = false;  // the filters left nothing to run here
  Cell status;
  Matrix matrix;
  nlohmann::json description;  // the suites' own description: cpu, selected backends
  nlohmann::json provenance;   // emulator and version, seed, CPU features seen
  std::vector<FailedTest> failed_tests;
  double seconds = 0;
};

std::string junit_xml(const std::vector<EnvReport>& envs);
std::string ktap(const std::vector<EnvReport>& envs);

}  // namespace lockstep::cli
