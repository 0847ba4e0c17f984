// The trees of `lockstep bench --tree`: checked, then built for this host.
#include "bench/trees.h"

#include <cstdio>
#include <filesystem>

#include "cpu/cpu.h"
#include "tree/tree.h"

namespace lockstep::cli {

int bench_tree_modules(const std::vector<std::string>& dirs, std::vector<std::string>& files) {
  if (dirs.empty()) return 0;
  const std::vector<tree::Recipe> recipes = tree::load_recipes(std::filesystem::path(LOCKSTEP_SOURCE_DIR) / "trees");
  const std::string host(cpu::arch_name(cpu::build_arch()));
  // Every tree checked before any is built: a typo in the last --tree
  // should not cost the builds of the others.
  std::vector<tree::OpenTree> opened(dirs.size());
  std::vector<std::vector<tree::Match>> here(dirs.size());
  for (size_t i = 0; i < dirs.size(); ++i) {
    if (const int rc = tree::open_tree(dirs[i], recipes, "lockstep bench: --tree", opened[i]); rc != 0) return rc;
    for (const tree::Match& m : opened[i].found)
      if (m.module->arch == host) here[i].push_back(m);
    if (here[i].empty()) {
      std::fprintf(stderr, "lockstep bench: --tree %s: nothing in it builds for %s, and bench times %s code only\n",
                   dirs[i].c_str(), host.c_str(), host.c_str());
      return 2;
    }
  }
  for (size_t i = 0; i < dirs.size(); ++i) {
    std::printf("tree %s\n", opened[i].tree.c_str());
    // A time under QEMU says nothing about the code: other architectures'
    // modules are left to `lockstep tree`, which checks them there.
    for (const tree::Match& m : opened[i].found)
      if (m.module->arch != host)
        std::printf("  skip  %-24s %s: built for %s; bench times %s code only\n",
                    (m.module->family + "/" + m.module->name).c_str(), m.module->marker().c_str(),
                    m.module->arch.c_str(), host.c_str());
    tree::Modules built;
    tree::build_all(here[i], opened[i].tree, opened[i].out, "", built);
    std::printf("  %zu built, %d skipped\n", built.backends.size(), built.skipped);
    if (built.files.empty()) {
      std::fprintf(stderr, "lockstep bench: --tree %s: none of its modules built (above)\n", dirs[i].c_str());
      return 2;
    }
    files.insert(files.end(), built.files.begin(), built.files.end());
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace lockstep::cli
