// `lockstep tree DIR`: the SHA-2 and ChaCha implementations a Linux or
// U-Boot tree holds, built as the recipes in trees/ say (the tree's own glue
// and assembly, unchanged, in lockstep's build directory), then through the
// whole matrix as `lockstep run` runs it, with run's options. With
// --series, the tree after a patch series too (series.h): both in one
// matrix, then compared.
#include <algorithm>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <set>
#include <functional>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.h"
#include "environments.h"
#include "modules.h"
#include "output_paths.h"
#include "run/run_select.h"
#include "tree.h"
#include "recipe.h"
#include "series.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// Whether the run selects a module of this family (no --family: all of them).
bool family_selected(const RunOptions& run, const tree::Match& m) {
  return run.families.empty() ||
         std::find(run.families.begin(), run.families.end(), m.module->family) != run.families.end();
}

// The modules worth building for this run: of the families it selects, for
// the architectures of the environments it selects (an arm64 module would
// only be built to be skipped by `--env native`).
std::vector<tree::Match> in_scope(const std::vector<tree::Match>& found, const RunOptions& run) {
  std::set<std::string> archs;
  for (const auto& [id, arch] : environment_archs()) {
    const bool selected = run.envs.empty() || std::any_of(run.envs.begin(), run.envs.end(), [&](const std::string& g) {
                            return glob_match(g, id);
                          });
    if (selected) archs.insert(arch);
  }
  std::vector<tree::Match> out;
  for (const tree::Match& m : found) {
    if (family_selected(run, m) && archs.contains(m.module->arch)) out.push_back(m);
  }
  return out;
}

// The folder a series builds in: one of its own per series, so that runs of
// different series on one tree (a job per posted patch) do not build into
// each other's.
fs::path series_dir_of(const fs::path& out, const std::vector<fs::path>& series) {
  std::string series_key;
  for (const fs::path& p : series) series_key += fs::absolute(p).lexically_normal().string() + "\n";
  return out / fmt::format("series-{:016x}", std::hash<std::string>{}(series_key));
}

// The series first: a patch that does not apply is a usage error, found
// before anything is built or run.
int apply_first(const std::vector<tree::Recipe>& recipes, const fs::path& tree, const std::vector<fs::path>& series,
                const fs::path& series_dir, tree::AppliedSeries& applied) {
  if (series.empty()) return 0;
  applied = tree::apply_series(recipes, tree, series, series_dir / "tree", series_dir / "work");
  if (applied.error.empty()) return 0;
  std::fprintf(stderr, "lockstep tree: --series: %s", applied.error.c_str());
  if (applied.error.back() != '\n') std::fputc('\n', stderr);
  return 2;
}

// Modules only of architectures no selected environment runs: said up
// front, with the environments that would run them.
int out_of_scope(const std::vector<tree::Match>& found, const RunOptions& run, const fs::path& tree) {
  std::set<std::string> archs;
  for (const tree::Match& m : found)
    if (family_selected(run, m)) archs.insert(m.module->arch);
  if (archs.empty()) {
    std::fprintf(stderr, "lockstep tree: %s holds no module of the families selected\n", tree.c_str());
    return 2;
  }
  std::string envs;
  for (const auto& [id, arch] : environment_archs())
    if (archs.contains(arch)) envs += " " + id;
  std::fprintf(stderr,
               "lockstep tree: %s holds modules for %s only (of the families selected), and no environment the "
               "run selects runs that code; these would:%s\n",
               tree.c_str(), fmt::format("{}", fmt::join(archs, ", ")).c_str(), envs.c_str());
  return 2;
}

// The patched copy's modules that the series touches, built beside the
// tree's; the others are said to be the same, and listed in untouched.
void build_patched(const std::vector<tree::Recipe>& recipes, const fs::path& tree, const fs::path& series_dir,
                   const tree::AppliedSeries& applied, const RunOptions& run, tree::Modules& built,
                   std::vector<std::string>& untouched) {
  const fs::path patched = series_dir / "tree";
  std::printf("tree %s after the series (a copy: %s), %zu patch(es):\n", tree.c_str(), patched.c_str(),
              applied.patches.size());
  for (const std::string& p : applied.patches) std::printf("  applied %s\n", p.c_str());
  std::vector<tree::Match> changed;
  for (const tree::Match& m : in_scope(tree::match(recipes, patched), run)) {
    if (tree::touches(applied, *m.module)) {
      changed.push_back(m);
    } else {
      untouched.push_back(m.module->family + "/" + m.module->rows());
      std::printf("  same  %-24s the series touches none of its files\n", untouched.back().c_str());
    }
  }
  tree::build_all(changed, patched, series_dir / "modules", tree::kSeriesSuffix, built);
}

// What was built, and the module files that fuzz, vectors and bench take with --module.
void say_built(const tree::Modules& built, const std::vector<std::string>& modules) {
  std::printf("  %zu built, %d skipped\n", built.backends.size(), built.skipped);
  for (size_t i = modules.size(); i < built.files.size(); ++i) std::printf("  module %s\n", built.files[i].c_str());
  if (built.files.size() > modules.size())
    std::printf("  (lockstep fuzz, vectors and bench take them with --module FILE)\n");
  std::fflush(stdout);
}

// What did not build: a SKIP row each, a FAIL where the series broke a
// module that built before it (a posted patch that does not compile).
void add_not_built(const tree::Modules& built, const RunOptions& given, RunOptions& run) {
  for (const auto& [backend, why] : built.not_built) {
    // A row the --backend globs leave out stays out as a SKIP too.
    if (!given.backends.empty() &&
        std::none_of(given.backends.begin(), given.backends.end(), [&](const std::string& g) { return glob_match(g, backend); }))
      continue;
    const bool after = backend.ends_with(tree::kSeriesSuffix);
    const std::string before = after ? backend.substr(0, backend.size() - std::strlen(tree::kSeriesSuffix)) : "";
    const bool broke = after && std::find(built.backends.begin(), built.backends.end(), before) != built.backends.end();
    run.not_built.push_back({backend, why, broke});
  }
}

// After a run with a series: the builds it broke, then the comparison of
// the two trees; the status stays run's unless the comparison fails to read.
int after_series(const RunOptions& run, const std::vector<std::string>& untouched, const fs::path& out,
                 const TreeOptions& o, int rc) {
  for (const RunOptions::NotBuilt& n : run.not_built)
    if (n.broken_by_series)
      std::fprintf(stderr, "lockstep tree: the series breaks the build of %s\n",
                   n.backend.substr(0, n.backend.size() - std::strlen(tree::kSeriesSuffix)).c_str());
  // The status is run's, over the cells of both trees: a tree that failed
  // before the series is not a pass after it. The comparison says which.
  if (tree::compare(matrix_json_path(run), untouched) == 2) return 2;
  if (o.bench_time > 0) tree::bench_series(out, o.bench_time);
  return rc;
}

}  // namespace

int cmd_tree(const TreeOptions& o, const std::vector<std::string>& modules) {
  // Before the builds: the matrix at their end must have somewhere to go.
  if (const int rc = check_run_outputs(o.run, "lockstep tree"); rc != 0) return rc;
  const std::vector<tree::Recipe> recipes = tree::load_recipes(fs::path(LOCKSTEP_SOURCE_DIR) / "trees");
  tree::OpenTree opened;
  if (const int rc = tree::open_tree(o.dir, recipes, "lockstep tree", opened); rc != 0) return rc;
  std::string series_error;
  const std::vector<fs::path> series = tree::series_files(o.series, &series_error);
  if (!series_error.empty()) {
    std::fprintf(stderr, "lockstep tree: --series %s\n", series_error.c_str());
    return 2;
  }
  const fs::path& tree = opened.tree;
  const fs::path& out = opened.out;
  const fs::path series_dir = series_dir_of(out, series);
  tree::AppliedSeries applied;
  if (const int rc = apply_first(recipes, tree, series, series_dir, applied); rc != 0) return rc;

  const std::vector<tree::Match> scoped = in_scope(opened.found, o.run);
  if (scoped.empty()) return out_of_scope(opened.found, o.run, tree);
  std::printf("tree %s\n", tree.c_str());
  tree::Modules built;
  built.files = modules;
  tree::build_all(scoped, tree, out, "", built);
  std::vector<std::string> untouched;  // modules the series leaves as they are
  if (!series.empty()) build_patched(recipes, tree, series_dir, applied, o.run, built, untouched);
  say_built(built, modules);
  if (built.backends.empty()) {
    std::fprintf(stderr, "lockstep tree: nothing of %s built: nothing to run\n", tree.c_str());
    return 1;
  }
  if (const int rc = route_modules(built.files, ""); rc != 0) return rc;
  RunOptions run = o.run;
  add_not_built(built, o.run, run);
  run.same_code_everywhere = built.same_code_everywhere;
  run.unchecked_calls = built.unchecked;
  if (run.backends.empty()) {
    run.backends = built.selects;
    run.backends_given = false;
  }
  const int rc = cmd_run(run);
  if (series.empty() || rc == 2) return rc;
  return after_series(run, untouched, out, o, rc);
}

}  // namespace lockstep::cli
