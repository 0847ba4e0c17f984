// arm64_reader FILE VADDR...: the isa engine for AArch64 code, as a host
// program. The aarch64 build's isa column runs it (under qemu-user a
// guest's exec of a host binary runs it natively) and reads the Scan of
// the functions at those ELF virtual addresses, as JSON, on stdout.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "isa/arm64_scan.h"
#include "isa/scan_json.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FILE VADDR...\n", argv[0]);
    return 2;
  }
  std::vector<std::uint64_t> entries;
  try {
    for (int i = 2; i < argc; ++i) entries.push_back(std::stoull(argv[i], nullptr, 0));
  } catch (const std::exception&) {
    std::fprintf(stderr, "%s: not an address among %s...\n", argv[0], argv[2]);
    return 2;
  }
  const auto scan = lockstep::isa::scan_arm64_file(argv[1], entries);
  std::printf("%s\n", lockstep::isa::to_json(scan).dump().c_str());
  return 0;
}
