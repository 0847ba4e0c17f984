// Checking a tree and building its modules: one code path for `lockstep
// tree` and `lockstep bench --tree`.
#include "tree.h"

#include "file_kind.h"

#include <unistd.h>

#include <cstdio>
#include <functional>

#include "build.h"

namespace lockstep::cli::tree {
namespace {

namespace fs = std::filesystem;

// One build directory per tree, so two trees never share modules.
fs::path out_dir_for(const fs::path& tree) {
  char id[17];
  std::snprintf(id, sizeof id, "%016zx", std::hash<std::string>{}(tree.string()));
  return fs::path(LOCKSTEP_BUILD_DIR) / "trees" / id;
}

}  // namespace

int open_tree(const std::string& dir, const std::vector<Recipe>& recipes, const char* who, OpenTree& into) {
  std::error_code ec;
  // A missing input is status 1 (README's contract); one that is there
  // but no directory is a usage error, 2.
  if (path_missing(dir)) {
    std::fprintf(stderr, "%s: %s: no such file or directory\n", who, dir.c_str());
    return 1;
  }
  if (!fs::is_directory(dir, ec)) {
    std::fprintf(stderr, "%s: %s: %s, not a directory\n", who, dir.c_str(), path_kind(dir).c_str());
    return 2;
  }
  into.tree = fs::canonical(dir, ec);
  into.found = match(recipes, into.tree);
  if (into.found.empty()) {
    std::fprintf(stderr, "%s: %s holds none of the files the recipes know:\n", who, into.tree.c_str());
    for (const Recipe& r : recipes)
      for (const ModuleRecipe& m : r.modules)
        std::fprintf(stderr, "  %s (%s): %s\n", r.name.c_str(), r.file.filename().c_str(), m.marker().c_str());
    return 2;
  }
  // One kernel's tree has one layout: files of two eras (lib/crypto/x86's
  // headers beside arch/x86/crypto's glue) are two trees mixed, or a
  // series applied to the wrong one.
  for (const Match& a : into.found)
    for (const Match& b : into.found)
      if (a.recipe->era != b.recipe->era) {
        std::fprintf(stderr,
                     "%s: %s mixes two layouts: %s (recipe %s: %s) and %s (recipe %s: %s); one kernel's tree has "
                     "one of them\n",
                     who, into.tree.c_str(), a.module->marker().c_str(), a.recipe->name.c_str(),
                     a.recipe->era.c_str(), b.module->marker().c_str(), b.recipe->name.c_str(), b.recipe->era.c_str());
        return 2;
      }
  into.out = out_dir_for(into.tree);
  fs::create_directories(into.out, ec);
  if (ec || access(into.out.c_str(), W_OK) != 0) {
    std::fprintf(stderr, "%s: cannot write the modules to %s: %s\n", who, into.out.c_str(),
                 ec ? ec.message().c_str() : "not writable");
    return 2;
  }
  return 0;
}

void build_all(const std::vector<Match>& found, const fs::path& tree, const fs::path& out,
               const std::string& suffix, Modules& into) {
  for (const Match& m : found) {
    const Built b = build(*m.recipe, *m.module, tree, LOCKSTEP_SOURCE_DIR, out, suffix);
    if (b.module.empty()) {
      std::printf("  SKIP  %-24s %s: %s\n", b.backend.c_str(), m.module->marker().c_str(), b.skip.c_str());
      ++into.skipped;
      into.not_built.emplace_back(b.backend, m.module->marker() + ": " + b.skip);
      continue;
    }
    const ModuleRecipe& r = *m.module;
    const std::string what =
        b.front_end ? r.front_end + " over " + r.glue + " + " + std::to_string(r.sources.size()) + " sources" +
                          (b.kunit_skip.empty() && !r.kunit.empty() ? ", with " + std::to_string(r.kunit.size()) + " KUnit suites" : "")
        : r.through_u_boot_hash()  ? r.front_end + " + " + r.arch_glue + " (calls " + b.function + " of " +
                                     r.sources.front() + " by " + r.kconfig + " alone), through U-Boot's hash API"
        : r.through_crypto_api() ? r.marker() + " + " + std::to_string(r.crypto_api.size() - 1 + r.sources.size() + r.generate.size()) +
                                     " more, in the crypto API model"
        : r.through_glue()     ? r.glue + " + " + std::to_string(r.sources.size()) + " sources"
                               : b.function + " of " + r.sources.front();
    std::printf("  built %-24s %s (recipe %s%s)\n", b.backend.c_str(), what.c_str(), m.recipe->name.c_str(),
                b.reused ? "; unchanged since its last build" : "");
    // What of the module did not build: a SKIP row each, saying why.
    for (const auto& [part, why] : {std::pair{":front-end", b.front_end_skip}, std::pair{":kunit", b.kunit_skip}})
      if (!why.empty()) {
        std::printf("  SKIP  %-24s %s\n", (b.backend + part).c_str(), why.c_str());
        ++into.skipped;
        into.not_built.emplace_back(b.backend + part, why);
      }
    into.files.push_back(b.module.string());
    into.backends.push_back(b.backend);
    into.selects.push_back(b.select);
    if (r.through_u_boot_hash())
      into.unchecked.push_back({b.backend, r.arch_glue, b.function, r.needs, r.kconfig});
    else if (!r.through_crypto_api() && !r.through_glue())
      into.same_code_everywhere.push_back(b.backend);
  }
}

}  // namespace lockstep::cli::tree
