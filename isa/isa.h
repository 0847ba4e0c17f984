// The isa check's engine: which instruction-set extensions the code
// reachable from some functions uses, by disassembling it (Zydis) from
// the process's own memory, function by function as the ELF symbol tables
// of the loaded objects bound them (libelf), following direct calls and
// jumps into other functions. What a backend executes can then be compared
// with what it declares (`needs`): code that runs an undeclared extension
// passes on every CPU that happens to have it and faults on the others.
//
// Calls are followed within the objects the entries lie in (a module's own
// code, PLT stubs and GOT slots included), not into other objects (the C
// library, lockstep's kernel host); calls through registers or other
// memory cannot be: Scan counts both, so a report can say what it did not
// see.
//
// That is x86-64 code read from memory; AArch64 code is read from its ELF
// file on the host (arm64_scan.h), into the same Scan, judged by the same
// allowed().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace lockstep::isa {

// Use is the first instruction seen that needs one extension.
struct Use {
  std::string mnemonic;  // "rorx eax, ebx, 6"
  std::uintptr_t address = 0;
  std::string where;  // "symbol+0x1c in file"
};

struct Scan {
  // Extension name -> its first use. Names are lockstep's feature names
  // where it has one ("ssse3", "avx2", "bmi2", "sha_ni", "avx512vl",
  // "phe", "sha512"), else the extension's usual one ("sse3", "sse4_2",
  // "bmi1", "fma", "aes", "avx512dq").
  std::map<std::string, Use> uses;
  std::vector<std::string> functions;  // every function scanned, "symbol in file"
  size_t instructions = 0;
  size_t indirect_calls = 0;   // call/jmp through a register or memory
  size_t external_calls = 0;   // to an address no symbol covers (the PLT)
  std::vector<std::string> problems;  // an entry with no symbol, undecodable bytes
};

// scan disassembles the functions containing `entries` and every function
// they reach by direct calls and jumps, at most `max_functions`.
Scan scan(std::span<const void* const> entries, size_t max_functions = 256);

// The architecture whose code a Scan read: extension names and baselines
// differ ("sha512" is a VEX extension on one, Armv8.2's on the other).
enum class Arch { kX86_64, kArm64 };

// allowed is every extension name code declaring `declared` (lockstep
// feature names, as FeatureSet::to_string writes them) may use: those,
// what they imply as GCC's -m options do (x86-64 avx2: avx, sse4_2,
// sse4_1, ssse3, sse3; arm64 sha512: sha2, asimd), and the baseline
// (x86-64: sse, sse2, mmx, cmov, x87; arm64 Linux: asimd, fp).
std::vector<std::string> allowed(const std::vector<std::string>& declared, Arch arch = Arch::kX86_64);

}  // namespace lockstep::isa
