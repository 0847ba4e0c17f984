#include "isa/arm64_classify.h"

namespace lockstep::isa::detail {
namespace {

// Mnemonic (a trailing '*': any mnemonic starting so) to the extension,
// named as Linux's HWCAPs name it; lockstep's arm64 features are "asimd",
// "sha2" and "sha512". The SHA512/SHA3/SM rows are reached through
// kUndecoded's mnemonics, while Capstone cannot decode those.
constexpr std::pair<std::string_view, std::string_view> kMnemonics[] = {
    {"sha256h", "sha2"},     {"sha256h2", "sha2"},    {"sha256su0", "sha2"},  {"sha256su1", "sha2"},
    {"sha1c", "sha1"},       {"sha1h", "sha1"},       {"sha1m", "sha1"},      {"sha1p", "sha1"},
    {"sha1su0", "sha1"},     {"sha1su1", "sha1"},
    {"sha512h", "sha512"},   {"sha512h2", "sha512"},  {"sha512su0", "sha512"}, {"sha512su1", "sha512"},
    {"eor3", "sha3"},        {"rax1", "sha3"},        {"xar", "sha3"},        {"bcax", "sha3"},
    {"aes*", "aes"},         {"pmull*", "pmull"},     {"sm3*", "sm3"},        {"sm4*", "sm4"},
    {"crc32*", "crc32"},
};

// Armv8.2 encodings Capstone 4.0.2 cannot decode, from the Arm ARM's
// "Cryptographic three-register SHA512", "two-register SHA512",
// "four-register" and "XAR" classes: (mask, value) over the opcode bits,
// register fields masked out. isa_arm64_test holds each against words
// aarch64-linux-gnu-as assembled.
struct Encoding {
  std::uint32_t mask, value;
  std::string_view mnemonic;
};
constexpr Encoding kUndecoded[] = {
    {0xffe0fc00, 0xce608000, "sha512h"},   {0xffe0fc00, 0xce608400, "sha512h2"},
    {0xffe0fc00, 0xce608800, "sha512su1"}, {0xffe0fc00, 0xce608c00, "rax1"},
    {0xfffffc00, 0xcec08000, "sha512su0"}, {0xfffffc00, 0xcec08400, "sm4e"},
    {0xffe0fc00, 0xce60c000, "sm3partw1"}, {0xffe0fc00, 0xce60c400, "sm3partw2"},
    {0xffe0fc00, 0xce60c800, "sm4ekey"},   {0xffe0cc00, 0xce408000, "sm3tt1a"},
    {0xffe0cc00, 0xce408400, "sm3tt1b"},   {0xffe0cc00, 0xce408800, "sm3tt2a"},
    {0xffe0cc00, 0xce408c00, "sm3tt2b"},   {0xffe08000, 0xce000000, "eor3"},
    {0xffe08000, 0xce200000, "bcax"},      {0xffe08000, 0xce400000, "sm3ss1"},
    {0xffe00000, 0xce800000, "xar"},
};

std::string_view extension_of_mnemonic(std::string_view m) {
  for (const auto& [name, ext] : kMnemonics) {
    if (name.ends_with('*') ? m.starts_with(name.substr(0, name.size() - 1)) : m == name) return ext;
  }
  return {};
}

}  // namespace

std::vector<std::string> arm64_extensions_of(csh handle, const cs_insn& insn) {
  const std::string_view m = insn.mnemonic;
  if (const std::string_view ext = extension_of_mnemonic(m); !ext.empty()) return {std::string(ext)};
  if (cs_insn_group(handle, &insn, ARM64_GRP_CRYPTO) || cs_insn_group(handle, &insn, ARM64_GRP_CRC))
    return {std::string(m)};
  if (cs_insn_group(handle, &insn, ARM64_GRP_NEON)) return {"asimd"};
  if (cs_insn_group(handle, &insn, ARM64_GRP_FPARMV8)) return {"fp"};
  return {};
}

Arm64Unknown arm64_decode_unknown(std::uint32_t word) {
  for (const Encoding& e : kUndecoded)
    if ((word & e.mask) == e.value) return {e.mnemonic, extension_of_mnemonic(e.mnemonic)};
  return {};
}

}  // namespace lockstep::isa::detail
