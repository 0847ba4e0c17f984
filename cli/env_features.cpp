#include "env_features.h"

#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "cpu/cpu.h"
#include "cpu_models.h"
#include "emulators.h"
#include "trap/trap.h"

namespace lockstep::cli {
namespace {

// What a child of `e` sees for `name`: the environment's own value, else
// the one it inherits from this process.
std::string child_value(const Environment& e, std::string_view name) {
  for (const auto& [k, v] : e.vars)
    if (k == name) return v;
  const char* v = std::getenv(std::string(name).c_str());
  return v ? v : "";
}

// What executes in an environment, and who provides it, for messages.
struct Executes {
  cpu::Arch arch = cpu::build_arch();
  cpu::FeatureSet features;
  std::string who;  // "this CPU", "QEMU's Haswell model"
  std::string emulators;  // "the PHE trap emulator", or ""
};

std::optional<Executes> what_executes(const Environment& e) {
  Executes x;
  if (e.launcher.empty()) {
    x.features = cpu::state().detection.features;
    x.who = "this CPU";
  } else {
    const models::Model* m = nullptr;
    for (const auto& [k, v] : e.vars)
      if (k == "LOCKSTEP_CPU_MODEL") m = models::find(v);
    if (m == nullptr) return std::nullopt;  // an emulator lockstep does not describe
    x.arch = m->arch;
    x.features = m->features;
    x.who = "the model " + m->id;
  }
  if (x.arch == cpu::build_arch()) {
    const trap::Request trap = trap::parse(child_value(e, "LOCKSTEP_EMULATE"));
    for (const trap::Emulator* t : trap.enabled) {
      x.features = x.features | t->provides;
      x.emulators += fmt::format("{}the {} trap emulator", x.emulators.empty() ? "" : " or ", t->title);
    }
  }
  return x;
}

std::string all_names(cpu::Arch arch) {
  std::string out;
  for (int i = 0; i < cpu::kFeatureCount; ++i)
    if (const auto f = static_cast<cpu::Feature>(i); cpu::feature_arch(f) == arch)
      out += (out.empty() ? "" : " ") + std::string(cpu::feature_name(f));
  return out;
}

}  // namespace

std::string env_feature_problem(const Environment& e) {
  const std::string mask = child_value(e, "LOCKSTEP_CPU");
  if (mask.empty()) return "";
  // An outside emulator the user runs lockstep under runs its children too
  // (those without a launcher of their own): its word stands.
  const std::string vouched = child_value(e, "LOCKSTEP_CPU_EMULATED_BY");
  bool in_process_vouch = false;
  for (const std::string_view name : list_items(vouched)) {
    if (e.launcher.empty() && runs_outside(name)) return "";
    in_process_vouch = in_process_vouch || name.ends_with("-trap");
  }
  const std::optional<Executes> x = what_executes(e);
  if (!x) return "";
  const std::string where = fmt::format("LOCKSTEP_CPU={}", mask);
  for (const std::string_view item : list_items(mask)) {
    std::string_view name = item;
    bool on = false;
    if (item.front() == '+' || item.front() == '-') {
      on = item.front() == '+';
      name.remove_prefix(1);
    } else if (const size_t eq = item.find('='); eq != std::string_view::npos) {
      on = item.substr(eq + 1) == "on";
      name = item.substr(0, eq);
    } else {
      continue;  // malformed: this process has said so already
    }
    if (name == "all") continue;
    const std::optional<cpu::Feature> f = cpu::parse_feature(name, x->arch);
    if (!f)
      return fmt::format("{}: '{}' is no {} feature, and this environment runs {} code (its features: {})", where,
                         name, cpu::arch_name(x->arch), cpu::arch_name(x->arch), all_names(x->arch));
    if (!on) continue;
    for (std::optional<cpu::Feature> g = *f; g; g = cpu::prerequisite(*g)) {
      if (x->features.has(*g) || cpu::is_preference(*g)) continue;
      std::string problem = fmt::format("{} declares {}, which {} lacks{}: code using it would fault (SIGILL) mid-run",
                                        where, cpu::feature_name(*g), x->who,
                                        x->emulators.empty() ? "" : " and " + x->emulators + " does not provide");
      if (in_process_vouch)
        problem += fmt::format("; LOCKSTEP_CPU_EMULATED_BY={} installs its emulator in lockstep alone, not in the "
                               "suites it runs (LOCKSTEP_EMULATE does)",
                               vouched);
      return problem;
    }
  }
  return "";
}

int check_env_features(const std::vector<Environment>& envs, const char* who) {
  int rc = 0;
  for (const Environment& e : envs) {
    if (!e.unavailable.empty()) continue;
    if (const std::string problem = env_feature_problem(e); !problem.empty()) {
      fmt::print(stderr, "{}: environment {}: {}\n", who, e.id, problem);
      rc = 2;
    }
  }
  return rc;
}

}  // namespace lockstep::cli
