#include "cpu_models.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "cpu_fields.h"

namespace lockstep::models {

// The text of emulation/cpu_models.json, generated at configure time.
extern const char* const kCpuModelsJson;

using nlohmann::json;

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
    const auto a = parse_arch(arch, where, error);
    if (!a) return {};
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
    const auto named = parse_features(*features, model.arch, where, error);
    if (!named) return {};
    model.features = *named;
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
