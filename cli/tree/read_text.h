// A whole file as text ("" when it cannot be read): logs, adapters,
// generated sources, the build's inputs, for the tree room's messages.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace lockstep::cli::tree {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace lockstep::cli::tree
