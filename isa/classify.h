// One x86-64 instruction to the extensions it needs: Zydis's ISA set of the
// instruction, named as lockstep names features, through one table; plus
// the register forms of the SHA512 extension, which Zydis 4.0 predates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <Zydis/Zydis.h>

namespace lockstep::isa::detail {

// The extensions `insn` needs beyond the x86-64 baseline: none, one, or
// two (an AVX-512 instruction on ymm needs avx512f and avx512vl).
std::vector<std::string> extensions_of(const ZydisDecodedInstruction& insn);

// Encodings Zydis 4.0 cannot decode: if `code` starts with one, its
// length, mnemonic and extension; else length 0.
struct Unknown {
  size_t length = 0;
  std::string mnemonic, extension;
};
Unknown decode_unknown(const std::uint8_t* code, size_t size);

}  // namespace lockstep::isa::detail
