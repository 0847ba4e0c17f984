// `lockstep bench --tree DIR`: a tree's modules for this host, built as
// `lockstep tree` builds them (tree/tree.h), to be benchmarked beside
// lockstep's own backends as --module files are.
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

// bench_tree_modules checks every tree of `dirs` first (exit 2 naming the
// one that is wrong, before anything is built), then builds the modules of
// this host's architecture, saying which others it leaves out, and appends
// their files to `files`. Returns 0, or 2: a tree with nothing that builds
// here is a usage error, found before any benchmark runs.
int bench_tree_modules(const std::vector<std::string>& dirs, std::vector<std::string>& files);

}  // namespace lockstep::cli
