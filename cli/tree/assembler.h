// What the kernel's build defines from the assembler's abilities: the
// CONFIG_AS_* symbols of trees/assembler_probes.json, each probed as
// Kconfig's as-instr does, with the compiler a tree's files are built with.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lockstep::cli::tree {

// assembler_config lists the symbols whose instruction `cc` assembles for
// `arch` ("CONFIG_AS_AVX2", ...), probing in `work` once per compiler and
// architecture in this process.
std::vector<std::string> assembler_config(const std::string& cc, const std::string& arch,
                                          const std::filesystem::path& source_dir,
                                          const std::filesystem::path& work);

}  // namespace lockstep::cli::tree
