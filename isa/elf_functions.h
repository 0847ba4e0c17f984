// The functions an ELF file's symbol table names, read with libelf: one
// reader for the isa check (scan.cpp, on the objects loaded in this
// process) and `lockstep bench --analyze` (on lockstep_bench's file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lockstep::isa {

struct ElfFunction {
  std::uintptr_t start = 0;  // the symbol's value plus the bias
  std::size_t size = 0;
  std::string name;  // as the table has it: mangled for C++
  // The source file a local symbol came from (the STT_FILE symbol before
  // it, "x86_avx2.cpp"); "" for global ones. It tells apart functions of
  // the same name in two files' anonymous namespaces.
  std::string file;
  // Where the code lies in the file (its section's offset plus the
  // symbol's place in it); 0 where the section holds no bytes.
  std::uint64_t file_offset = 0;
};

// read_elf_functions returns the sized STT_FUNC symbols of `path` (.symtab
// where it has one, else .dynsym), moved by `bias`, sorted by start;
// nothing when the file cannot be read as ELF.
std::vector<ElfFunction> read_elf_functions(const std::string& path, std::uintptr_t bias = 0);

}  // namespace lockstep::isa
