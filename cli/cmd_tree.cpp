// `lockstep tree DIR`: the SHA-2 and ChaCha implementations a Linux or U-Boot tree
// holds, built as the recipes in trees/ say (the tree's own glue and
// assembly, unchanged, in lockstep's build directory), then through the
// whole matrix as `lockstep run` runs it, with run's options.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <unistd.h>

#include "commands.h"
#include "modules.h"
#include "tree_build.h"
#include "tree_recipe.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// One build directory per tree, so two trees (or a tree before and after a
// series) never share modules.
fs::path out_dir_for(const fs::path& tree) {
  char id[17];
  std::snprintf(id, sizeof id, "%016zx", std::hash<std::string>{}(tree.string()));
  return fs::path(LOCKSTEP_BUILD_DIR) / "trees" / id;
}

}  // namespace

int cmd_tree(const TreeOptions& o, const std::vector<std::string>& modules) {
  std::error_code ec;
  if (!fs::is_directory(o.dir, ec)) {
    std::fprintf(stderr, "lockstep tree: %s: not a directory\n", o.dir.c_str());
    return 2;
  }
  const fs::path tree = fs::canonical(o.dir, ec);
  const std::vector<tree::Recipe> recipes = tree::load_recipes(fs::path(LOCKSTEP_SOURCE_DIR) / "trees");
  const std::vector<tree::Match> found = tree::match(recipes, tree);
  if (found.empty()) {
    std::fprintf(stderr, "lockstep tree: %s holds none of the files the recipes know:\n", tree.c_str());
    for (const tree::Recipe& r : recipes)
      for (const tree::ModuleRecipe& m : r.modules)
        std::fprintf(stderr, "  %s (%s): %s\n", r.name.c_str(), r.file.filename().c_str(), m.marker().c_str());
    return 2;
  }
  const fs::path out = out_dir_for(tree);
  fs::create_directories(out, ec);
  if (ec || access(out.c_str(), W_OK) != 0) {
    std::fprintf(stderr, "lockstep tree: cannot write the modules to %s: %s\n", out.c_str(),
                 ec ? ec.message().c_str() : "not writable");
    return 2;
  }

  std::printf("tree %s\n", tree.c_str());
  std::vector<std::string> built = modules, backends;
  int skipped = 0;
  for (const tree::Match& m : found) {
    const tree::Built b = tree::build(*m.recipe, *m.module, tree, LOCKSTEP_SOURCE_DIR, out);
    if (b.module.empty()) {
      std::printf("  SKIP  %-24s %s: %s\n", b.backend.c_str(), m.module->marker().c_str(), b.skip.c_str());
      ++skipped;
      continue;
    }
    std::printf("  built %-24s %s%s (recipe %s)\n", b.backend.c_str(),
                m.module->through_glue() ? (m.module->glue + " + ").c_str() : (m.module->function + " of ").c_str(),
                m.module->through_glue() ? (std::to_string(m.module->sources.size()) + " sources").c_str()
                                         : m.module->sources.front().c_str(),
                m.recipe->name.c_str());
    built.push_back(b.module.string());
    backends.push_back(b.backend);
  }
  std::printf("  %zu built, %d skipped\n", backends.size(), skipped);
  std::fflush(stdout);
  if (backends.empty()) {
    std::fprintf(stderr, "lockstep tree: nothing of %s built: nothing to run\n", tree.c_str());
    return 1;
  }
  if (const int rc = route_modules(built, ""); rc != 0) return rc;
  RunOptions run = o.run;
  if (run.backends.empty()) {
    run.backends = backends;
    run.backends_given = false;
  }
  return cmd_run(run);
}

}  // namespace lockstep::cli
