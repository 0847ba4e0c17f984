// Builds a recipe's module from a tree, unchanged, in lockstep's build
// directory: the tree's glue and sources, lockstep's kernel environment
// (include/lockstep/kernel_compat.h, include/lockstep/kernel/), the
// family's generic fallback and an adapter written from
// trees/support/adapter_<family>.c.in.
#pragma once

#include <filesystem>
#include <string>

#include "recipe.h"

namespace lockstep::cli::tree {

struct Built {
  std::string backend;  // "sha256/linux:sha256"; a crypto API module's own row
  std::string select;   // the pattern of its rows: the backend, or "sha256/linux-api:*"
  std::filesystem::path module;  // the .so; empty when it did not build
  std::string skip;     // why not: a missing file, no compiler, the compiler's message
  bool reused = false;  // nothing it is built from changed since the last build
  std::string function; // through one function: its name in this tree's era
  // A glue module with a library front end in its recipe: why the front
  // end is not what was built (the glue alone was), or why it was built
  // without the tree's KUnit suites; "" where neither.
  std::string front_end_skip;
  std::string kunit_skip;
  bool front_end = false;  // the module is the library front end over the glue
};

// build compiles `m` of `tree` into `out_dir` with the compiler for its
// architecture ($CC for x86_64, else cc; aarch64-linux-gnu-gcc for arm64).
// `suffix` ends the backend's name and the module's file name (a patched
// copy's ".series").
Built build(const Recipe& r, const ModuleRecipe& m, const std::filesystem::path& tree,
            const std::filesystem::path& source_dir, const std::filesystem::path& out_dir,
            const std::string& suffix = "");

}  // namespace lockstep::cli::tree
