#include "fuzz_env.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "env_features.h"
#include "host/loader.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

bool sets(const Environment& e, std::string_view var) {
  return std::any_of(e.vars.begin(), e.vars.end(), [&](const auto& v) { return v.first == var; });
}

// Why the libFuzzer build (build/fuzz: clang, ASan, this host) cannot fuzz
// in `e`; empty when it can.
std::string why_not_libfuzzer(const Environment& e) {
  // ASan's shadow memory does not work under qemu-user, and the fuzz build
  // is this host's, not the environment's.
  if (!e.launcher.empty() || e.build != fs::path(LOCKSTEP_BUILD_DIR))
    return fmt::format("libFuzzer's ASan build cannot run under {}", e.name);
  // fuzz/CMakeLists.txt links the trap host into the replay drivers only.
  if (sets(e, "LOCKSTEP_EMULATE"))
    return "the libFuzzer build links no trap emulator and would ignore LOCKSTEP_EMULATE";
  return "";
}

// An id that is none of `all`: a typo (exit 2), or an environment that
// exists only with modules it works on (simd-*: a kernel-environment module).
int no_such_environment(const std::string& id) {
  std::string known;
  for (const auto& [known_id, arch] : environment_archs()) {
    if (known_id == id) {
      fmt::print(stderr,
                 "lockstep fuzz: --env {} changes only what modules built with lockstep's kernel "
                 "environment do, and none is loaded (--module; `lockstep tree` prints them)\n",
                 id);
      return 1;
    }
    known += " " + known_id;
  }
  fmt::print(stderr, "lockstep fuzz: --env '{}' names no environment (known:{})\n", id, known);
  return 2;
}

// A module given with --module must be of the code `e` runs: another
// architecture's would be left out without a word.
int check_module_archs(const std::vector<std::string>& modules, const Environment& e,
                       const std::vector<Environment>& all) {
  for (const std::string& m : modules) {
    std::string error;
    const std::string arch = module::elf_arch(m, &error);
    if (arch == e.arch || !error.empty()) continue;  // route_modules has judged the file
    const auto there = std::find_if(all.begin(), all.end(), [&](const Environment& o) {
      return o.arch == arch && o.unavailable.empty();
    });
    fmt::print(stderr, "lockstep fuzz: module {}: built for {}, and --env {} runs {} code{}\n", m, arch, e.id,
               e.arch, there == all.end() ? "" : fmt::format(" (--env {} runs {} code)", there->id, arch));
    return 2;
  }
  return 0;
}

}  // namespace

int plan_fuzz(const FuzzOptions& o, FuzzPlan& out) {
  const std::vector<Environment> all = environments();
  const auto it = std::find_if(all.begin(), all.end(), [&](const Environment& e) { return e.id == o.env; });
  if (it == all.end()) return no_such_environment(o.env);
  const Environment& e = *it;
  // Usage errors first, as everywhere: they do not depend on the host.
  if (const int rc = check_module_archs(o.modules, e, all); rc != 0) return rc;
  if (!e.unavailable.empty()) {
    fmt::print(stderr, "lockstep fuzz: {} ({}) cannot run here: {}\n", e.id, e.name, e.unavailable);
    return 1;
  }
  if (const int rc = check_env_features({e}, "lockstep fuzz"); rc != 0) return rc;
  const fs::path replay = e.build / "fuzz" / ("fuzz_" + o.target + "_replay");
  if (!fs::exists(replay)) {
    fmt::print(stderr, "lockstep fuzz: no {} (`cmake --build {} --target fuzz_{}_replay` builds it)\n",
               replay.string(), e.build.string(), o.target);
    return 1;
  }
  const fs::path libfuzzer = fs::path(LOCKSTEP_SOURCE_DIR) / "build/fuzz/fuzz" / ("fuzz_" + o.target);
  std::string why = why_not_libfuzzer(e);
  if (why.empty() && !fs::exists(libfuzzer))
    why = "no fuzz build: ./lockstep fuzz builds it when clang-19 is installed";
  out = {.env = e,
         .binary = (why.empty() ? libfuzzer : replay).string(),
         .libfuzzer = why.empty(),
         .driver = why.empty() ? "libFuzzer" : "the replay driver (" + why + ")"};
  return 0;
}

}  // namespace lockstep::cli
