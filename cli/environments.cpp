#include "environments.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "catalog.h"
#include "cpu/cpu.h"
#include "cpu_models.h"
#include "modules.h"
#include "process.h"
#include "trap/backends.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;


}  // namespace

// Every catalog family has a harness of its own name (fuzz/CMakeLists.txt).
std::string fuzz_harness_for(std::string_view family) {
  return catalog::find_family(family) ? std::string(family) : "";
}

// The kernel environment's SIMD modes besides "usable" (lockstep/kernel_host.h).
constexpr const char* kSimdModes[] = {"unusable", "alternate"};

std::vector<std::pair<std::string, std::string>> environment_archs() {
  const std::string host(cpu::arch_name(cpu::build_arch()));
  std::vector<std::pair<std::string, std::string>> out = {{"native", host}};
  for (const char* mode : kSimdModes) out.emplace_back(std::string("simd-") + mode, host);
#if defined(__x86_64__)
  for (const trap::Emulator* t : trap::emulators()) out.emplace_back(trap::id(*t), host);
  for (const models::Model& m : models::table().models)
    out.emplace_back(m.id, m.emulator == "qemu-aarch64" ? "arm64" : "x86_64");
#endif
  return out;
}

// Natively again with may_use_simd() false on every call, and on every
// other one: the generic fallbacks of the modules built with lockstep's
// kernel environment (a tree's glue), and a switch within one message.
// None where no such module is loaded.
static std::vector<Environment> kernel_simd_environments(const fs::path& build) {
  std::vector<std::string> impls, patterns;
  for (const catalog::Family* f : catalog::families())
    for (const Backend* b : f->backends()) {
      if (!b->kernel_environment) continue;
      const std::string impl(b->name.substr(b->name.find('/') + 1));
      if (std::find(impls.begin(), impls.end(), impl) == impls.end()) impls.push_back(impl);
      const std::string pattern = "*" + catalog::test_name("", *b).substr(1) + "*";
      if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end()) patterns.push_back(pattern);
    }
  std::vector<Environment> out;
  if (impls.empty()) return out;
  std::string filter;
  for (const std::string& p : patterns) filter += (filter.empty() ? "" : ":") + p;
  for (const char* mode : kSimdModes)
    out.push_back({.id = std::string("simd-") + mode,
                   .name = std::string("native, SIMD ") + mode + " to the kernel glue (LOCKSTEP_KERNEL_SIMD=" + mode + ")",
                   .build = build,
                   .vars = {{"LOCKSTEP_KERNEL_SIMD", mode}},
                   .gtest_filter = filter,
                   .backend_impls = impls});
  return out;
}

#if defined(__x86_64__)
// One per trap emulator linked in (emulation/trap): the backends that need
// what it provides, and the dispatch checks.
static Environment trap_environment(const trap::Emulator& t, const fs::path& build) {
  const std::string name(t.name);
  const std::vector<std::string> impls = trap::backend_impls_for(t);
  Environment e{.id = trap::id(t),
                .name = std::string(t.title) + " trap emulator (LOCKSTEP_EMULATE=" + name + ")",
                .build = build,
                .vars = {{"LOCKSTEP_EMULATE", name}},
                .gtest_filter = trap::gtest_filter_for(t) + ":Dispatch.*",
                .backend_impls = impls,
                .selftest = fs::path("emulation") / name / (name + "_emulator_test")};
  if (!t.identity.vendor.empty())
    e.name += fmt::format(", as {} (family {:#x}, model {:#x})", t.identity.brand.substr(0, t.identity.brand.find(" (")),
                          t.identity.family, t.identity.model);
  if (t.fuzz_runs > 0) e.fuzz_runs = t.fuzz_runs;
  if (!t.cpu_mask.empty()) {
    // After the user's own mask, which still applies.
    const char* user = std::getenv("LOCKSTEP_CPU");
    e.vars.emplace_back("LOCKSTEP_CPU", (user && *user ? std::string(user) + "," : "") + std::string(t.cpu_mask));
    e.name += ", LOCKSTEP_CPU=" + std::string(t.cpu_mask) + " as the CPUs that have it";
  }
  // Without a backend that needs what it emulates, it would show every row.
  if (impls.empty()) e.unavailable = "no backend needs what it emulates";
  return e;
}

// The emulators this host has for the CPU models, looked up once for all of them.
struct ModelEmulators {
  std::string qemu_x86, qemu_arm, sde;
  bool have_sde = false;
  fs::path arm_build;
};

static ModelEmulators model_emulators(const fs::path& source) {
  ModelEmulators found;
  found.qemu_x86 = find_program("qemu-x86_64");
  found.qemu_arm = find_program("qemu-aarch64");
  const char* sde_path = std::getenv("SDE_PATH");
  found.sde = sde_path ? std::string(sde_path) + "/sde64" : "";
  found.have_sde = !found.sde.empty() && access(found.sde.c_str(), X_OK) == 0;
  found.arm_build = source / "build" / "aarch64";
  return found;
}

// The first model before this one on the same emulator with the same features, if any.
static std::string same_as_of(const models::Model& m) {
  for (const models::Model& earlier : models::table().models) {
    if (&earlier == &m) break;
    if (earlier.emulator == m.emulator && earlier.features == m.features) return earlier.id;
  }
  return "";
}

// An AArch64 model runs the aarch64 build's tests, with its modules, under qemu-aarch64.
static void launch_arm64(Environment& e, const models::Model& m, const ModelEmulators& found,
                         const fs::path& build) {
  e.name = "qemu-aarch64 -cpu " + m.cpu;
  e.launcher = {found.qemu_arm, "-L", "/usr/aarch64-linux-gnu", "-cpu", m.cpu};
  e.build = found.arm_build;
  // Set even when empty: the inherited list holds this host's modules.
  e.vars.emplace_back("LOCKSTEP_MODULES", modules_for("arm64"));
  // The isa column's AArch64 reader is a host program, of this build;
  // without it that column skips and says what it is missing.
  if (const fs::path reader = build / "isa" / "arm64_reader"; fs::exists(reader))
    e.vars.emplace_back("LOCKSTEP_ISA_READER", reader.string());
  if (found.qemu_arm.empty()) {
    e.unavailable = "qemu-aarch64 not found: install qemu-user";
  } else if (!fs::exists(found.arm_build / "conformance" / "conformance_tests")) {
    e.unavailable =
        "no aarch64 build: ./lockstep run builds it when aarch64-linux-gnu-g++ is installed";
  }
}

// One emulated CPU model: LOCKSTEP_CPU_MODEL set, and the dispatch test
// works out from the table what the model must select. An emulator this
// host lacks leaves the model listed, with the reason, so --env still names it.
static Environment model_environment(const models::Model& m, const ModelEmulators& found, const fs::path& build) {
  const models::Emulator* em = models::find_emulator(m.emulator);
  Environment e{.id = m.id,
                .build = build,
                // The emulator's CPUID is the model's identity: a stand-in
                // for the host's has no say there.
                .vars = {{"LOCKSTEP_CPU_MODEL", m.id}, {"LOCKSTEP_CPU_IDENTITY", ""}},
                .gtest_filter = em->skip_tests.empty() ? "" : "-" + em->skip_tests,
                .fuzz_runs = 2000,
                .same_as = same_as_of(m)};
  if (m.emulator == "qemu-x86_64") {
    e.name = "qemu-x86_64 -cpu " + m.cpu;
    e.launcher = {found.qemu_x86, "-cpu", m.cpu};
    if (found.qemu_x86.empty()) e.unavailable = "qemu-x86_64 not found: install qemu-user";
  } else if (m.emulator == "sde") {
    e.name = "sde64 -" + m.cpu;
    e.launcher = {found.sde, "-" + m.cpu, "--"};
    if (!found.have_sde) e.unavailable = "Intel SDE not found: set SDE_PATH to the directory of sde64";
  } else if (m.emulator == "qemu-aarch64") {
    launch_arm64(e, m, found, build);
  } else {
    e.name = m.id;
    e.unavailable = "lockstep run does not know how to start emulator " + m.emulator;
  }
  return e;
}
#endif

// Each environment's architecture, and this host's modules named in every
// one that does not set its own: they reach its children through the
// inherited LOCKSTEP_MODULES; naming it puts it in every reproducer line too.
static void with_archs_and_modules(std::vector<Environment>& out) {
  for (Environment& e : out)
    for (const auto& [id, arch] : environment_archs())
      if (id == e.id) e.arch = arch;
  const std::string native = modules_for(std::string(cpu::arch_name(cpu::build_arch())));
  for (Environment& e : out) {
    const bool has = std::any_of(e.vars.begin(), e.vars.end(),
                                 [](const auto& v) { return v.first == "LOCKSTEP_MODULES"; });
    if (!has && !native.empty()) e.vars.emplace_back("LOCKSTEP_MODULES", native);
  }
}

std::vector<Environment> environments() {
  const fs::path build = LOCKSTEP_BUILD_DIR;
  std::vector<Environment> out;
  out.push_back({.id = "native", .name = "native", .build = build});

  for (Environment& e : kernel_simd_environments(build)) out.push_back(std::move(e));

#if defined(__x86_64__)
  for (const trap::Emulator* t : trap::emulators()) out.push_back(trap_environment(*t, build));
  // Emulated CPU models, from the model table (emulation/cpu_models.json).
  const ModelEmulators found = model_emulators(LOCKSTEP_SOURCE_DIR);
  for (const models::Model& m : models::table().models) out.push_back(model_environment(m, found, build));
#endif
  with_archs_and_modules(out);
  return out;
}

}  // namespace lockstep::cli
