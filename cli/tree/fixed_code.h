// Kernel assembly in the kernel's code model (32-bit absolute addresses of
// its data, R_X86_64_32S) built into a module all the same: the objects
// that need low addresses are linked into an image of their own at a fixed
// address below 2 GiB, which the module carries and maps at load
// (trees/support/fixed_code.c); its functions are reached by jumps to
// their addresses.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lockstep::cli::tree {

struct FixedCode {
  // What to link into the module in place of `sources`: the sources that
  // need no fixed address, the image with its jumps, and the loader.
  std::vector<std::string> inputs;
  std::string error;  // why it could not be done (the tool's message)
};

// place_fixed_code compiles each of `sources` with `cc` and `flags`, links
// those with 32-bit absolute relocations at an address of their own
// (chosen from `dir`, so that modules of a tree differ), and writes the
// rest of what the module needs into `dir`, named after `stem`.
FixedCode place_fixed_code(const std::string& cc, const std::vector<std::string>& flags,
                           const std::vector<std::string>& sources, const std::filesystem::path& dir,
                           const std::string& stem, const std::filesystem::path& support);

}  // namespace lockstep::cli::tree
