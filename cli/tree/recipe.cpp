#include "recipe.h"

#include "file_kind.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace lockstep::cli::tree {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

[[noreturn]] void bad(const fs::path& file, const std::string& what) {
  std::fprintf(stderr, "lockstep: recipe %s: %s\n", file.c_str(), what.c_str());
  std::exit(2);
}

std::string text(const json& j, const char* key, const fs::path& file, const std::string& where,
                 bool required = true) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) bad(file, where + key + ": missing");
    return "";
  }
  if (!it->is_string() || it->get<std::string>().empty())
    bad(file, where + key + ": not a non-empty string");
  return it->get<std::string>();
}

// A path inside the tree: relative, and never above it.
std::string inside_tree(const std::string& p, const fs::path& file, const std::string& field) {
  const fs::path path(p);
  if (p.empty() || path.is_absolute() ||
      std::any_of(path.begin(), path.end(), [](const fs::path& c) { return c == ".."; }))
    bad(file, field + ": '" + p + "' is not a path inside the tree");
  return p;
}

// Each element of the array `list`, a path inside the tree, onto `out`;
// `name` is the array's field, for the messages.
void read_paths(const json& list, const fs::path& file, const std::string& name, std::vector<std::string>& out) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string field = name + "[" + std::to_string(i) + "]";
    if (!list[i].is_string()) bad(file, field + ": not a string");
    out.push_back(inside_tree(list[i].get<std::string>(), file, field));
  }
}

// An optional array of paths inside the tree.
std::vector<std::string> paths(const json& m, const char* key, const fs::path& file, const std::string& where) {
  std::vector<std::string> out;
  const auto it = m.find(key);
  if (it == m.end()) return out;
  if (!it->is_array()) bad(file, where + key + ": not an array of paths inside the tree");
  read_paths(*it, file, where + key, out);
  return out;
}

// A module with nothing to build: the marker (its first source) and the reason.
void read_uncovered(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  r.uncovered = text(m, "uncovered", file, where);
  const auto sources = m.find("sources");
  if (sources == m.end() || !sources->is_array() || sources->empty() || !(*sources)[0].is_string())
    bad(file, where + "sources: missing or not a non-empty array");
  for (size_t s = 0; s < sources->size(); ++s)
    r.sources.push_back(inside_tree((*sources)[s].is_string() ? (*sources)[s].get<std::string>() : "",
                                    file, where + "sources[" + std::to_string(s) + "]"));
}

// The assembly sources; a crypto API module may build its assembly from generators only.
void read_sources(const json& m, const fs::path& file, const std::string& where, bool crypto_api,
                  ModuleRecipe& r) {
  const auto sources = m.find("sources");
  if (sources == m.end() || !sources->is_array() || (sources->empty() && !crypto_api))
    bad(file, where + "sources: missing or not a non-empty array");
  read_paths(*sources, file, where + "sources", r.sources);
}

// The optional CONFIG_ options the module's build turns on.
void read_config(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  const auto config = m.find("config");
  if (config == m.end()) return;
  if (!config->is_array()) bad(file, where + "config: not an array of CONFIG_ names");
  for (size_t c = 0; c < config->size(); ++c) {
    const json& o = (*config)[c];
    const std::string field = where + "config[" + std::to_string(c) + "]";
    if (!o.is_string() || o.get<std::string>().rfind("CONFIG_", 0) != 0 ||
        o.get<std::string>().find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      bad(file, field + ": not a CONFIG_ name in capitals");
    r.config.push_back(o.get<std::string>());
  }
}

// One generated file: a plain output name and the command that writes it.
ModuleRecipe::Generated generated_of(const json& o, const fs::path& file, const std::string& field) {
  if (!o.is_object()) bad(file, field + ": not an object with output and command");
  ModuleRecipe::Generated out;
  out.output = text(o, "output", file, field);
  if (out.output.find('/') != std::string::npos || out.output.starts_with("."))
    bad(file, field + "output: '" + out.output + "' is not a plain file name");
  const auto command = o.find("command");
  if (command == o.end() || !command->is_array() || command->empty())
    bad(file, field + "command: missing or not a non-empty array of strings");
  for (const json& a : *command) {
    if (!a.is_string() || a.get<std::string>().empty()) bad(file, field + "command: not a list of non-empty strings");
    out.command.push_back(a.get<std::string>());
  }
  return out;
}

// The optional files the build generates before it assembles.
void read_generate(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  const auto generate = m.find("generate");
  if (generate == m.end()) return;
  if (!generate->is_array()) bad(file, where + "generate: not an array of {output, command}");
  for (size_t g = 0; g < generate->size(); ++g)
    r.generate.push_back(generated_of((*generate)[g], file, where + "generate[" + std::to_string(g) + "]."));
}

// A module reached through the kernel's crypto API: its .c files and the module they make.
void read_crypto_api(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  const auto files = m.find("crypto_api");
  if (!files->is_array() || files->empty()) bad(file, where + "crypto_api: not a non-empty array of .c files");
  for (size_t c = 0; c < files->size(); ++c) {
    const std::string field = where + "crypto_api[" + std::to_string(c) + "]";
    if (!(*files)[c].is_string()) bad(file, field + ": not a string");
    r.crypto_api.push_back(inside_tree((*files)[c].get<std::string>(), file, field));
  }
  r.kernel_module = text(m, "kernel_module", file, where);
}

// A module reached through its glue: the entry points, and the optional library front end.
void read_glue(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  r.glue = inside_tree(text(m, "glue", file, where), file, where + "glue");
  r.init = text(m, "init", file, where);
  if (r.family == "chacha") {
    r.crypt = text(m, "crypt", file, where);
    r.hchacha = text(m, "hchacha", file, where, false);
  } else {
    r.blocks = text(m, "blocks", file, where);
  }
  r.finup_2x = text(m, "finup_2x", file, where, false);
  if (!r.finup_2x.empty() && r.family != "sha256")
    bad(file, where + "finup_2x: only the sha256 family has one");
  if (m.contains("front_end"))
    r.front_end = inside_tree(text(m, "front_end", file, where), file, where + "front_end");
  r.front_end_sources = paths(m, "front_end_sources", file, where);
  r.kunit = paths(m, "kunit", file, where);
  if (r.front_end.empty() && (!r.front_end_sources.empty() || !r.kunit.empty()))
    bad(file, where + "front_end_sources and kunit come with a front_end");
}

// One name, or the names it had by era ("sha2_ce_transform", then
// 6.12's "__sha256_ce_transform"): the tree's sources say which.
void read_function_names(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  if (const json& f = m.at("function"); f.is_array()) {
    for (size_t n = 0; n < f.size(); ++n) {
      if (!f[n].is_string() || f[n].get<std::string>().empty())
        bad(file, where + "function[" + std::to_string(n) + "]: not a function name");
      r.functions.push_back(f[n].get<std::string>());
    }
    if (r.functions.empty()) bad(file, where + "function: an empty array");
  } else {
    r.functions.push_back(text(m, "function", file, where));
  }
  r.function = r.functions.front();
}

// A ChaCha function called directly: how many blocks one call takes.
void read_chacha_function(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  // arm64's ChaCha functions take other arguments (a full-block count
  // last); their adapter is not written yet.
  if (r.arch != "x86_64") bad(file, where + "arch: ChaCha functions have an adapter for x86_64 only");
  const auto per_call = m.find("blocks_per_call");
  if (per_call == m.end() || !per_call->is_number_integer() || per_call->get<int>() < 1 ||
      per_call->get<int>() > 64)
    bad(file, where + "blocks_per_call: missing or not an integer from 1 to 64");
  r.blocks_per_call = per_call->get<int>();
  r.hchacha = text(m, "hchacha", file, where, false);
}

// A U-Boot SHA-2 module's hash front end, its arch glue, option and headers.
void read_u_boot_front_end(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  if (!m.contains("front_end")) {
    if (m.contains("arch_glue") || m.contains("kconfig") || m.contains("headers"))
      bad(file, where + "arch_glue, kconfig, headers: only with front_end");
    return;
  }
  if (r.environment != "u-boot" || r.family == "chacha")
    bad(file, where + "front_end: only a U-Boot SHA-2 module (environment u-boot) has one");
  r.front_end = inside_tree(text(m, "front_end", file, where), file, where + "front_end");
  r.arch_glue = inside_tree(text(m, "arch_glue", file, where), file, where + "arch_glue");
  r.kconfig = text(m, "kconfig", file, where);
  if (!r.kconfig.starts_with("CONFIG_")) bad(file, where + "kconfig: not a CONFIG_ name");
  const auto headers = m.find("headers");
  if (headers != m.end() && !headers->is_array()) bad(file, where + "headers: not an array of paths");
  if (headers != m.end()) read_paths(*headers, file, where + "headers", r.headers);
}

// The optional SHA-2 state fields that the named symbols hold.
void read_offsets(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  const auto offsets = m.find("offsets");
  if (offsets == m.end()) return;
  if (r.family == "chacha") bad(file, where + "offsets: only the SHA-2 states have fields to give");
  if (!offsets->is_object()) bad(file, where + "offsets: not an object of symbol: field");
  for (const auto& [symbol, field] : offsets->items()) {
    if (!field.is_string() || (field != "count" && field != "finalize"))
      bad(file, where + "offsets." + symbol + ": not one of the fields count, finalize");
    if (field == "finalize" && r.family != "sha256")
      bad(file, where + "offsets." + symbol + ": only sha256 states have finalize");
    r.offsets.emplace_back(symbol, field.get<std::string>());
  }
}

// A module whose function is called directly, in Linux or U-Boot.
void read_function(const json& m, const fs::path& file, const std::string& where, ModuleRecipe& r) {
  read_function_names(m, file, where, r);
  r.needs = text(m, "needs", file, where);
  if (r.family == "chacha") read_chacha_function(m, file, where, r);
  if (m.contains("environment")) r.environment = text(m, "environment", file, where);
  if (r.environment != "linux" && r.environment != "u-boot")
    bad(file, where + "environment: '" + r.environment + "' (linux or u-boot)");
  read_u_boot_front_end(m, file, where, r);
  read_offsets(m, file, where, r);
}

ModuleRecipe module_of(const json& m, const fs::path& file, size_t i) {
  const std::string where = "modules[" + std::to_string(i) + "].";
  if (!m.is_object()) bad(file, where + ": not an object");
  ModuleRecipe r;
  r.name = text(m, "name", file, where);
  r.arch = text(m, "arch", file, where);
  if (r.arch != "x86_64" && r.arch != "arm64") bad(file, where + "arch: '" + r.arch + "' (x86_64 or arm64)");
  r.family = text(m, "family", file, where);
  if (m.contains("uncovered")) {
    read_uncovered(m, file, where, r);
    return r;
  }
  if (r.family != "sha256" && r.family != "sha512" && r.family != "chacha")
    bad(file, where + "family: '" + r.family + "' has no adapter (sha256, sha512, chacha)");
  const bool crypto_api = m.contains("crypto_api");
  read_sources(m, file, where, crypto_api, r);
  read_config(m, file, where, r);
  read_generate(m, file, where, r);
  const bool glue = m.contains("glue"), function = m.contains("function");
  if (int(glue) + int(function) + int(crypto_api) != 1)
    bad(file, where + ": give one of glue (with init, and blocks or crypt), function (with needs), or "
                      "crypto_api (with kernel_module)");
  if (crypto_api)
    read_crypto_api(m, file, where, r);
  else if (glue)
    read_glue(m, file, where, r);
  else
    read_function(m, file, where, r);
  return r;
}

Recipe recipe_of(const fs::path& file) {
  std::ifstream in(file);
  if (!in) bad(file, "cannot read it");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    bad(file, std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) bad(file, "not a JSON object");
  Recipe r;
  r.file = file;
  r.name = text(j, "recipe", file, "");
  r.about = text(j, "about", file, "");
  r.era = text(j, "era", file, "");
  const auto modules = j.find("modules");
  if (modules == j.end() || !modules->is_array() || modules->empty())
    bad(file, "modules: missing or not a non-empty array");
  std::set<std::string> names;
  for (size_t i = 0; i < modules->size(); ++i) {
    r.modules.push_back(module_of((*modules)[i], file, i));
    if (!names.insert(r.modules.back().family + "/" + r.modules.back().row()).second)
      bad(file, "modules[" + std::to_string(i) + "].name: " + r.modules.back().row() + " twice in the family");
  }
  return r;
}

}  // namespace

const std::vector<std::string>& crypto_api_headers() {
  static const std::vector<std::string> headers = {
      "include/crypto/sha.h",    "include/crypto/sha2.h",          "include/crypto/sha256_base.h",
      "include/crypto/sha512_base.h", "include/crypto/chacha.h", "include/crypto/internal/chacha.h"};
  return headers;
}

const std::vector<std::string>& front_end_headers() {
  static const std::vector<std::string> headers = {"include/crypto/sha2.h", "include/crypto/hmac.h",
                                                   "include/crypto/chacha.h", "include/crypto/utils.h"};
  return headers;
}

std::vector<std::string> ModuleRecipe::files() const {
  std::vector<std::string> out = crypto_api;
  if (through_glue()) out.push_back(glue);
  if (through_glue() && !front_end.empty()) {
    out.push_back(front_end);
    out.insert(out.end(), front_end_sources.begin(), front_end_sources.end());
    out.insert(out.end(), kunit.begin(), kunit.end());
    out.insert(out.end(), front_end_headers().begin(), front_end_headers().end());
  }
  if (through_u_boot_hash()) {
    out.insert(out.end(), {front_end, arch_glue});
    out.insert(out.end(), headers.begin(), headers.end());
  }
  out.insert(out.end(), sources.begin(), sources.end());
  if (through_crypto_api()) out.insert(out.end(), crypto_api_headers().begin(), crypto_api_headers().end());
  return out;
}

std::vector<Recipe> load_recipes(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  if (ec) bad(dir, "cannot list the recipes: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<Recipe> out;
  for (const fs::path& f : files) out.push_back(recipe_of(f));
  return out;
}

std::vector<Match> match(const std::vector<Recipe>& recipes, const fs::path& tree) {
  std::vector<Match> out;
  for (const Recipe& r : recipes)
    for (const ModuleRecipe& m : r.modules) {
      // Anything at the marker's path, a file or not: a FIFO or a looping
      // link where the glue should be is the build's to name, never a
      // module that silently is not there.
      if (!path_missing((tree / m.marker()).string())) out.push_back({&r, &m});
    }
  return out;
}

}  // namespace lockstep::cli::tree
