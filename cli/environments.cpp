#include "environments.h"

#include <unistd.h>

#include <cstdlib>

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// find_program looks `name` up in PATH, as a shell would.
std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace

std::string fuzz_harness_for(std::string_view family) {
  if (family == "sha256" || family == "sha512") return std::string(family);
  if (family == "chacha") return "chacha";
  return "";
}

std::vector<Environment> environments() {
  const fs::path build = LOCKSTEP_BUILD_DIR;
  const fs::path source = LOCKSTEP_SOURCE_DIR;
  std::vector<Environment> out;
  out.push_back({.id = "native", .name = "native", .build = build});

#if defined(__x86_64__)
  out.push_back({.id = "phe-trap",
                 .name = "PHE trap emulator (LOCKSTEP_EMULATE=phe)",
                 .build = build,
                 .vars = {{"LOCKSTEP_EMULATE", "phe"}},
                 .gtest_filter = "*x86_phe*:Dispatch.*",
                 .backend_filter = "x86-phe"});
  out.push_back({.id = "sha512ext-trap",
                 .name = "SHA512 trap emulator (LOCKSTEP_EMULATE=sha512ext)",
                 .build = build,
                 .vars = {{"LOCKSTEP_EMULATE", "sha512ext"}},
                 .gtest_filter = "*x86_sha512ext*:Dispatch.*",
                 .backend_filter = "x86-sha512ext",
                 .fuzz_runs = 2000});

  // Older x86 CPUs: qemu's models report in CPUID exactly what they execute,
  // and each must select what its features allow. Left out under QEMU:
  // /proc/cpuinfo is the host's, and qemu 7.2 starts x86-64 signal handlers
  // with a misaligned stack, so the interrupt-context cases fault in movaps
  // whatever the backend (emulation/README.md).
  const std::string qemu_x86 = find_program("qemu-x86_64");
  struct Model {
    const char* name;
    const char* sha;     // in both SHA-2 families
    const char* chacha;  // never an AVX-512 backend: no model has it
  };
  for (const Model m : {Model{"Haswell", "x86-avx2", "x86-avx2"},
                        Model{"SandyBridge", "generic", "x86-ssse3"},
                        Model{"Nehalem", "generic", "x86-ssse3"},
                        Model{"qemu64", "generic", "generic"}}) {
    const std::string s = m.sha, c = m.chacha;
    Environment e{.id = std::string("qemu-x86_64-") + m.name,
                  .name = std::string("qemu-x86_64 -cpu ") + m.name,
                  .launcher = {qemu_x86, "-cpu", m.name},
                  .build = build,
                  .vars = {{"LOCKSTEP_EXPECT_SELECTED",
                            "sha256=sha256/" + s + ",sha224=sha256/" + s + ",sha512=sha512/" + s +
                                ",sha384=sha512/" + s + ",chacha20=chacha/" + c +
                                ",chacha12=chacha/" + c}},
                  .gtest_filter = "-CpuDetect.AgreesWithProcCpuinfo:*/HashConformance.InterruptContext*",
                  .fuzz_runs = 2000};
    if (qemu_x86.empty()) e.unavailable = "qemu-x86_64 not found: install qemu-user";
    out.push_back(e);
  }

  // Newer x86 CPUs, where Intel SDE is installed.
  const char* sde_path = std::getenv("SDE_PATH");
  const std::string sde = sde_path ? std::string(sde_path) + "/sde64" : "";
  // Each model is listed either way, so that --env sde-skx is a valid request
  // that SKIPs with the reason where SDE is missing.
  const bool have_sde = !sde.empty() && access(sde.c_str(), X_OK) == 0;
  for (const char* cpu : {"nhm", "snb", "hsw", "skx", "icl", "spr", "arl", "lnl"}) {
    Environment e{.id = std::string("sde-") + cpu,
                  .name = std::string("sde64 -") + cpu,
                  .launcher = {sde, std::string("-") + cpu, "--"},
                  .build = build,
                  .gtest_filter = "-CpuDetect.AgreesWithProcCpuinfo",
                  .fuzz_runs = 2000};
    if (!have_sde) e.unavailable = "Intel SDE not found: set SDE_PATH to the directory of sde64";
    out.push_back(e);
  }

  // arm64, from the cross build.
  const std::string qemu_arm = find_program("qemu-aarch64");
  const fs::path arm_build = source / "build" / "aarch64";
  // The Cortex models lack the SHA512 instructions: generic must serve there.
  struct ArmModel {
    const char* name;
    const char* sha512;
  };
  for (const ArmModel m : {ArmModel{"max", "sha512/arm64-ce"}, ArmModel{"cortex-a57", "sha512/generic"},
                           ArmModel{"cortex-a53", "sha512/generic"},
                           ArmModel{"cortex-a72", "sha512/generic"}}) {
    const std::string model = m.name;
    Environment e{.id = "qemu-aarch64-" + model,
                  .name = "qemu-aarch64 -cpu " + model,
                  .launcher = {qemu_arm, "-L", "/usr/aarch64-linux-gnu", "-cpu", model},
                  .build = arm_build,
                  .vars = {{"LOCKSTEP_EXPECT_SELECTED",
                            std::string("sha256=sha256/arm64-ce,sha224=sha256/arm64-ce,sha512=") +
                                m.sha512 + ",sha384=" + m.sha512 +
                                ",chacha20=chacha/arm64-neon,chacha12=chacha/arm64-neon"}},
                  .fuzz_runs = 2000};
    if (qemu_arm.empty()) e.unavailable = "qemu-aarch64 not found: install qemu-user";
    else if (!fs::exists(arm_build / "conformance" / "conformance_tests"))
      e.unavailable = "no aarch64 build: ./lockstep run builds it when aarch64-linux-gnu-g++ is installed";
    out.push_back(e);
  }
#endif
  return out;
}

}  // namespace lockstep::cli
