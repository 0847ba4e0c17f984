// A tree's modules as `lockstep tree` and `lockstep bench --tree` both get
// them: the tree checked and matched against the recipes, then each match
// built (build.h) into one build directory per tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "recipe.h"
#include "commands.h"  // UncheckedCall

namespace lockstep::cli::tree {

// OpenTree is a tree that holds something the recipes know.
struct OpenTree {
  std::filesystem::path tree;  // canonical
  std::filesystem::path out;   // where its modules are built, created
  std::vector<Match> found;    // points into the recipes open_tree was given
};

// open_tree checks `dir` for command `who` before anything is built or run:
// a directory, holding a file some recipe knows, with a writable build
// directory. Returns 0, or 2 after saying what is wrong, naming `dir`.
int open_tree(const std::string& dir, const std::vector<Recipe>& recipes, const char* who, OpenTree& into);

struct Modules {
  std::vector<std::string> files, backends;
  std::vector<std::string> selects;  // the patterns of the built modules' rows
  // The rows of modules through one function (no glue of the tree's own
  // to choose code by the CPU): the same code in every CPU model.
  std::vector<std::string> same_code_everywhere;
  // The rows through U-Boot's front end: the call their glue makes by
  // Kconfig alone, for the run to explain its SIGILL (unchecked_call.h).
  std::vector<UncheckedCall> unchecked;
  int skipped = 0;
  std::vector<std::pair<std::string, std::string>> not_built;  // backend, why
};

// build_all builds every match of `tree` into `out`, saying on stdout what
// was built and what not (with the compiler's message).
void build_all(const std::vector<Match>& found, const std::filesystem::path& tree,
               const std::filesystem::path& out, const std::string& suffix, Modules& into);

}  // namespace lockstep::cli::tree
