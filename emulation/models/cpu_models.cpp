#include "cpu_models.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

namespace lockstep::models {

// The text of emulation/cpu_models.json, generated at configure time.
extern const char* const kCpuModelsJson;

namespace {

using nlohmann::json;

std::optional<cpu::Arch> parse_arch(std::string_view s) {
  if (s == "x86_64") return cpu::Arch::kX86_64;
  if (s == "arm64") return cpu::Arch::kArm64;
  return std::nullopt;
}

// string_field returns j[key] as a string, or sets `error` and returns "".
std::string string_field(const json& j, const char* key, const std::string& where,
                         std::string& error) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) {
    if (error.empty()) error = where + ": field \"" + key + "\" must be a string";
    return "";
  }
  return it->get<std::string>();
}

}  // namespace

Table parse(std::string_view text, std::string_view file, std::string& error) {
  error.clear();
  const std::string in_file(file);
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    error = in_file + ": not a JSON object";
    return {};
  }
  Table t;
  const auto emulators = doc.find("emulators");
  if (emulators == doc.end() || !emulators->is_object()) {
    error = in_file + ": field \"emulators\" must be an object";
    return {};
  }
  for (const auto& [name, e] : emulators->items()) {
    const std::string where = in_file + ": emulator " + name;
    if (!e.is_object()) {
      error = where + ": must be an object";
      return {};
    }
    Emulator em;
    em.name = name;
    const std::string arch = string_field(e, "arch", where, error);
    em.skip_tests = string_field(e, "skip_tests", where, error);
    em.why = string_field(e, "why", where, error);
    if (!error.empty()) return {};
    const auto a = parse_arch(arch);
    if (!a) {
      error = where + ": field \"arch\": '" + arch + "' is neither x86_64 nor arm64";
      return {};
    }
    em.arch = *a;
    t.emulators.push_back(em);
  }

  const auto models = doc.find("models");
  if (models == doc.end() || !models->is_array()) {
    error = in_file + ": field \"models\" must be an array";
    return {};
  }
  for (size_t i = 0; i < models->size(); ++i) {
    const json& m = (*models)[i];
    std::string where = in_file + ": models[" + std::to_string(i) + "]";
    if (!m.is_object()) {
      error = where + ": must be an object";
      return {};
    }
    Model model;
    model.emulator = string_field(m, "emulator", where, error);
    model.cpu = string_field(m, "cpu", where, error);
    model.source = string_field(m, "source", where, error);
    if (!error.empty()) return {};
    model.id = model.emulator + "-" + model.cpu;
    where += " (" + model.id + ")";
    const Emulator* em = nullptr;
    for (const Emulator& e : t.emulators)
      if (e.name == model.emulator) em = &e;
    if (em == nullptr) {
      error = where + ": field \"emulator\": '" + model.emulator + "' is not in \"emulators\"";
      return {};
    }
    model.arch = em->arch;
    for (const Model& other : t.models)
      if (other.id == model.id) {
        error = where + ": listed twice";
        return {};
      }
    const auto features = m.find("features");
    if (features == m.end() || !features->is_array()) {
      error = where + ": field \"features\" must be an array of feature names";
      return {};
    }
    for (const json& f : *features) {
      const auto feature = f.is_string() ? cpu::parse_feature(f.get<std::string>(), model.arch)
                                         : std::nullopt;
      if (!feature) {
        error = where + ": field \"features\": " + f.dump() + " is not a " +
                std::string(cpu::arch_name(model.arch)) + " feature of lockstep's";
        return {};
      }
      model.features.add(*feature);
    }
    // A model executes whole chains (avx2 implies avx), so a gap is a typo.
    if (cpu::closed(model.features) != model.features) {
      error = where + ": field \"features\": {" + model.features.to_string() +
              "} lists a feature without its prerequisite";
      return {};
    }
    t.models.push_back(model);
  }
  return t;
}

const Table& table() {
  static const Table t = [] {
    std::string error;
    Table parsed = parse(kCpuModelsJson, "emulation/cpu_models.json", error);
    if (!error.empty()) {
      std::fprintf(stderr, "lockstep: %s\n", error.c_str());
      std::abort();
    }
    return parsed;
  }();
  return t;
}

const Model* find(std::string_view id) {
  for (const Model& m : table().models)
    if (m.id == id) return &m;
  return nullptr;
}

const Emulator* find_emulator(std::string_view name) {
  for (const Emulator& e : table().emulators)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace lockstep::models
