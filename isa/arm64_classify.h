// One AArch64 instruction to the extensions it needs. Capstone 4 groups
// AArch64 instructions only as CRYPTO, NEON, FPARMV8 and CRC, so crypto
// instructions are named by mnemonic, through one table; and it predates
// Armv8.2's SHA512, SHA3, SM3 and SM4 (cs_disasm fails on them), so those
// are recognised by their fixed encoding bits, through a second table.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <capstone/capstone.h>

namespace lockstep::isa::detail {

// The extensions a decoded instruction needs beyond the A64 base: its
// mnemonic's extension ("sha2", "sha512", "aes", "pmull", "sha3",
// "sha1", "sm3", "sm4", "crc32") if the table names it, else "asimd" for
// NEON and "fp" for FP, else none. A CRYPTO instruction the table does not
// name is reported under its mnemonic: unknown means undeclared.
std::vector<std::string> arm64_extensions_of(csh handle, const cs_insn& insn);

// An instruction word Capstone 4 cannot decode, if it is one of the
// encodings above: its mnemonic and extension; else empty strings.
struct Arm64Unknown {
  std::string_view mnemonic, extension;
};
Arm64Unknown arm64_decode_unknown(std::uint32_t word);

}  // namespace lockstep::isa::detail
