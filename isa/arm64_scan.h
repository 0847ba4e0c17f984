// The isa engine for AArch64 code, read from an ELF file rather than from
// memory: the aarch64 build runs under QEMU on an x86-64 host, where
// Capstone and libelf exist, and both read a foreign ELF file and ISA.
// Like scan() it follows direct branches (b, bl, b.cond, cbz, cbnz, tbz,
// tbnz) into the other functions of the same file, and counts what it
// cannot follow: br/blr (indirect), and targets no symbol covers (PLT).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "isa/isa.h"

namespace lockstep::isa {

// scan_arm64_file reads the functions of `path` containing the ELF
// virtual addresses `entries`, and every function they reach; Use
// addresses are ELF virtual addresses.
Scan scan_arm64_file(const std::string& path, std::span<const std::uint64_t> entries, size_t max_functions = 256);

}  // namespace lockstep::isa
