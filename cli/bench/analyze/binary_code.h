// The code of one built binary (lockstep_bench), read from its file: its
// function symbols (isa/elf_functions.h), demangled, and each backend's hot
// loop found in the function hot_loop_table.h names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/analyze/hot_loop_table.h"
#include "isa/elf_functions.h"

namespace lockstep::cli::analyze {

struct FoundLoop {
  std::string function;  // demangled
  std::uint64_t address = 0;  // the loop's first instruction, as linked
  std::size_t instructions = 0;
  std::string assembly;  // hot_loop.h's loop_assembly
  std::string problem;   // why there is none, when `assembly` is empty
};

// no_loop is a FoundLoop that says why there is none.
FoundLoop no_loop(std::string problem);

class BinaryCode {
 public:
  explicit BinaryCode(std::string path);

  const std::string& path() const { return path_; }
  bool empty() const { return functions_.empty(); }

  // hot_loop finds `row`'s function (several matching: the one with the
  // biggest hot loop) and the loop in it.
  FoundLoop hot_loop(const HotLoopRow& row) const;

 private:
  std::string path_;
  std::vector<isa::ElfFunction> functions_;
  std::vector<std::string> demangled_;  // functions_[k]'s
};

}  // namespace lockstep::cli::analyze
