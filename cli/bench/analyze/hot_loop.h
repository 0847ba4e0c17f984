// A backend's hot loop, found in its machine code: the code decoded with
// Zydis (the disassembler lockstep's isa check trusts with all of AVX-512;
// Debian 12's Capstone 4 cannot decode zmm VPROLD), the loops its backward
// branches close, the innermost one with the most instructions, and that
// loop's body as assembly llvm-mca reads: Intel syntax, since Zydis's AT&T
// is not the assembler's (movsxd for movslq, vmovdqa32y: llvm-mc rejects
// both). Pure functions of bytes and an address, so a test can hand them a
// known loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lockstep::cli::analyze {

struct Instruction {
  std::uint64_t address = 0;
  std::size_t length = 0;
  std::string text;  // Intel syntax; a direct branch's mnemonic alone ("jnz")
  std::optional<std::uint64_t> target;  // a direct jump's or call's
  bool conditional_jump = false;
  bool returns = false;  // ret: the code after it is not the loop's
};

struct Disassembly {
  std::vector<Instruction> instructions;
  std::string problem;  // why decoding stopped early; "" when it did not
};

// disassemble decodes `code`, which starts at `address`, to its end or to
// the first bytes Zydis cannot decode (then `problem` says where).
Disassembly disassemble(std::span<const std::uint8_t> code, std::uint64_t address);

// Loop is instructions [first, last] of a Disassembly: `last` jumps back
// to `first`.
struct Loop {
  std::size_t first = 0, last = 0;
  std::size_t size() const { return last - first + 1; }
};

// innermost_loops are the loops that hold no other loop, in address
// order. A loop is closed by a backward conditional jump (GCC rotates its
// loops so) and holds no return: a backward unconditional jump is as
// often a cold block's way back to the epilogue.
std::vector<Loop> innermost_loops(const Disassembly& d);

// hot_loop is the innermost loop with the most instructions (the first of
// equals): where a backend's blocks spend their time. None without loops.
std::optional<Loop> hot_loop(const Disassembly& d);

// loop_assembly is `loop`'s body as Intel-syntax assembly for llvm-mca: one
// instruction a line, a label at the top for the closing jump, and the
// loop's other direct branches pointed at labels of their own (inside)
// or at one after the body (outside), since their addresses mean nothing
// to an assembler.
std::string loop_assembly(const Disassembly& d, const Loop& loop);

}  // namespace lockstep::cli::analyze
