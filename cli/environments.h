// Where `lockstep run` runs the suites: natively, under the PHE trap
// emulator, under QEMU CPU models (older x86, arm64) and under Intel SDE.
// An environment this host cannot provide is listed with the reason, so the
// matrix says SKIP instead of leaving it out.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockstep::cli {

struct Environment {
  std::string id = {};    // file-name safe: "native", "qemu-x86_64-Haswell"
  std::string name = {};  // for people: "qemu-x86_64 -cpu Haswell"
  std::vector<std::string> launcher = {};  // put in front of each binary
  std::filesystem::path build = {};        // the build tree whose binaries run
  std::vector<std::pair<std::string, std::string>> vars = {};
  std::string gtest_filter = {};    // empty: every test
  // Empty: every row; else the rows whose backend's name, after its family,
  // is one of these ("x86-phe": sha256/x86-phe and sha512/x86-phe).
  std::vector<std::string> backend_impls = {};
  int fuzz_runs = 20000;            // random programs per backend
  std::string unavailable = {};     // non-empty: why this host cannot run it
  std::string arch = {};            // the code it runs: "x86_64", "arm64"
  // A trap emulator's own tests, relative to `build`, run before the
  // environment's suites (emulator_selftest.h); empty: none.
  std::filesystem::path selftest = {};
  // An earlier model of the same emulator with the same features: the run
  // leaves this one out unless --env names it (the same code paths).
  std::string same_as = {};
};

std::vector<Environment> environments();

// The id and arch of every environment environments() lists, without what
// it works out from the backends: safe before modules are routed (the
// backend registries are assembled once, at their first use).
std::vector<std::pair<std::string, std::string>> environment_archs();

// The fuzz harness covering a backend family ("sha256" -> "sha256").
std::string fuzz_harness_for(std::string_view family);

}  // namespace lockstep::cli
