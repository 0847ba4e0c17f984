// The functions an ELF file's symbol table names, read with libelf: one
// reader for the isa checks (scan.cpp, on the objects loaded in this
// process; arm64_scan.cpp, on an AArch64 file) and `lockstep bench
// --analyze` (on lockstep_bench's file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

struct Elf;  // libelf's handle (<libelf.h>)

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

// ElfSymbols is what one symbol table says about a file's code.
struct ElfSymbols {
  std::vector<ElfFunction> functions;  // sorted by start
  // The AArch64 mapping symbols, sorted: an address and whether data ($d)
  // or code ($x) begins there, so that a literal pool inside a function
  // is not read as instructions. None in an x86-64 file.
  std::vector<std::pair<std::uintptr_t, bool>> mapping;
};

// read_elf_symbols reads the sized STT_FUNC symbols and the mapping
// symbols of the file `elf` opened, from .symtab where it names a
// function, else from .dynsym, moved by `bias`.
ElfSymbols read_elf_symbols(Elf* elf, std::uintptr_t bias = 0);

// read_elf_functions opens `path` and returns its read_elf_symbols
// functions; nothing when the file cannot be read as ELF.
std::vector<ElfFunction> read_elf_functions(const std::string& path, std::uintptr_t bias = 0);

// function_at is the function of `functions` (sorted by start) whose bytes
// hold `address`, or nullptr.
const ElfFunction* function_at(std::span<const ElfFunction> functions, std::uintptr_t address);

}  // namespace lockstep::isa
