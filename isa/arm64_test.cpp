// The arm64 isa engine on code whose extensions are known: instruction
// words that aarch64-linux-gnu-as (binutils 2.40, -march=armv8.2-a+sha3+sm4
// +crypto+crc) assembled, as objdump -d printed them, decoded one by one;
// and an object the cross compiler builds here, with a function using
// SHA512H and one calling it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "isa/arm64_classify.h"
#include "isa/arm64_scan.h"
#include "isa/isa.h"

namespace lockstep::isa {
namespace {

struct Decoded {
  bool by_capstone = false;
  std::string mnemonic;
  std::vector<std::string> needs;
};

Decoded decode(std::uint32_t word) {
  csh h;
  EXPECT_EQ(cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, &h), CS_ERR_OK);
  cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  std::uint8_t bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<std::uint8_t>(word >> (8 * i));
  cs_insn* insn = nullptr;
  Decoded d;
  if (cs_disasm(h, bytes, 4, 0, 1, &insn) == 1) {
    d = {true, insn->mnemonic, detail::arm64_extensions_of(h, *insn)};
    cs_free(insn, 1);
  } else if (const auto u = detail::arm64_decode_unknown(word); !u.mnemonic.empty()) {
    d = {false, std::string(u.mnemonic), {std::string(u.extension)}};
  }
  cs_close(&h);
  return d;
}

struct Known {
  std::uint32_t word;
  const char* mnemonic;  // objdump's
  const char* extension;  // "" for the A64 base
  bool capstone4;         // whether Capstone 4.0.2 decodes it
};

// Test that each word gets objdump's mnemonic and its extension, and that
// Capstone 4.0.2 decodes exactly the Armv8.0 ones: the Armv8.2 SHA512,
// SHA3, SM3 and SM4 words come from the encoding table, and the day a
// Capstone decodes them this test says so.
TEST(IsaArm64Classify, KnownEncodings) {
  const Known known[] = {
      {0x5e024020, "sha256h", "sha2", true},        // sha256h q0, q1, v2.4s
      {0x5e025020, "sha256h2", "sha2", true},       // sha256h2 q0, q1, v2.4s
      {0x5e282820, "sha256su0", "sha2", true},      // sha256su0 v0.4s, v1.4s
      {0x5e026020, "sha256su1", "sha2", true},      // sha256su1 v0.4s, v1.4s, v2.4s
      {0x5e020020, "sha1c", "sha1", true},          // sha1c q0, s1, v2.4s
      {0x5e280820, "sha1h", "sha1", true},          // sha1h s0, s1
      {0x4e284820, "aese", "aes", true},            // aese v0.16b, v1.16b
      {0x0ee2e020, "pmull", "pmull", true},         // pmull v0.1q, v1.1d, v2.1d
      {0x4ee2e020, "pmull2", "pmull", true},        // pmull2 v0.1q, v1.2d, v2.2d
      {0x9ac25c20, "crc32cx", "crc32", true},       // crc32cx w0, w1, x2
      {0xce628020, "sha512h", "sha512", false},     // sha512h q0, q1, v2.2d
      {0xce7d83df, "sha512h", "sha512", false},     // sha512h q31, q30, v29.2d
      {0xce628420, "sha512h2", "sha512", false},    // sha512h2 q0, q1, v2.2d
      {0xcec08020, "sha512su0", "sha512", false},   // sha512su0 v0.2d, v1.2d
      {0xce628820, "sha512su1", "sha512", false},   // sha512su1 v0.2d, v1.2d, v2.2d
      {0xce020c20, "eor3", "sha3", false},          // eor3 v0.16b, v1.16b, v2.16b, v3.16b
      {0xce628c20, "rax1", "sha3", false},          // rax1 v0.2d, v1.2d, v2.2d
      {0xce820c20, "xar", "sha3", false},           // xar v0.2d, v1.2d, v2.2d, #3
      {0xce220c20, "bcax", "sha3", false},          // bcax v0.16b, v1.16b, v2.16b, v3.16b
      {0xce420c20, "sm3ss1", "sm3", false},         // sm3ss1 v0.4s, v1.4s, v2.4s, v3.4s
      {0xcec08420, "sm4e", "sm4", false},           // sm4e v0.4s, v1.4s
      {0x4ea28420, "add", "asimd", true},           // add v0.4s, v1.4s, v2.4s
      {0x1e622820, "fadd", "fp", true},             // fadd d0, d1, d2
      {0x8b020020, "add", "", true},                // add x0, x1, x2
  };
  for (const Known& k : known) {
    const Decoded d = decode(k.word);
    SCOPED_TRACE(k.mnemonic);
    EXPECT_EQ(d.mnemonic, k.mnemonic) << std::hex << k.word;
    EXPECT_EQ(d.by_capstone, k.capstone4) << std::hex << k.word;
    if (*k.extension) EXPECT_EQ(d.needs, std::vector<std::string>{k.extension});
    else EXPECT_TRUE(d.needs.empty());
  }
  // An undefined word matches no row of the table.
  EXPECT_TRUE(detail::arm64_decode_unknown(0x00000000).mnemonic.empty());
}

TEST(IsaArm64Allowed, ImpliedAsGccImpliesThem) {
  const auto a = allowed({"sha512"}, Arch::kArm64);
  for (const char* f : {"sha512", "sha2", "asimd", "fp"})
    EXPECT_NE(std::find(a.begin(), a.end(), f), a.end()) << f;
  const auto b = allowed({"sha2"}, Arch::kArm64);
  EXPECT_EQ(std::find(b.begin(), b.end(), "sha512"), b.end());
  EXPECT_EQ(std::find(b.begin(), b.end(), "sha1"), b.end());
  // x86-64's sha512 implies avx; arm64's does not.
  EXPECT_EQ(std::find(a.begin(), a.end(), "avx"), a.end());
}

// e_entry of an ELF64 file's header, 0 if it has none.
std::uint64_t elf_entry(const std::filesystem::path& file) {
  std::ifstream f(file, std::ios::binary);
  char header[32] = {};
  f.read(header, sizeof header);
  std::uint64_t entry = 0;
  if (f) std::memcpy(&entry, header + 24, 8);
  return entry;
}

// Test that a function using SHA512H is found through a caller declaring
// sha2 alone, named with its function, and that the caller's own
// SHA256H is sha2: the shape of the isa column's check on a backend.
TEST(IsaArm64Scan, FindsSha512ThroughACall) {
  const std::string gcc = LOCKSTEP_AARCH64_GCC;
  if (gcc.empty()) GTEST_SKIP() << "no aarch64-linux-gnu-gcc to build the object (Debian gcc-aarch64-linux-gnu)";
  const auto dir = std::filesystem::temp_directory_path() / ("isa_arm64_test." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream c(dir / "t.c");
    c << "typedef unsigned long long u64x2 __attribute__((vector_size(16)));\n"
         "__attribute__((noinline)) u64x2 round512(u64x2 a, u64x2 b, u64x2 c) {\n"
         "  asm(\"sha512h %q0, %q1, %2.2d\" : \"+w\"(a) : \"w\"(b), \"w\"(c));\n"
         "  return a;\n"
         "}\n"
         "u64x2 caller(u64x2 a, u64x2 b, u64x2 c) {\n"
         "  asm(\"sha256h %q0, %q1, %2.4s\" : \"+w\"(a) : \"w\"(b), \"w\"(c));\n"
         "  return round512(a, b, c);\n"
         "}\n";
  }
  // Linked (no libc: -nostdlib, entry caller) so that the call is resolved
  // and the symbols have addresses, as in the suites' executables.
  const std::string cmd = gcc + " -O1 -march=armv8.2-a+sha3 -nostdlib -Wl,-e,caller -o " + (dir / "t").string() +
                          " " + (dir / "t.c").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

  // The entry is caller's ELF address: the link made it the entry point.
  const std::uint64_t entries[] = {elf_entry(dir / "t")};
  const Scan s = scan_arm64_file((dir / "t").string(), entries);
  EXPECT_TRUE(s.problems.empty()) << s.problems.front();
  ASSERT_TRUE(s.uses.contains("sha512"));
  EXPECT_EQ(s.uses.at("sha512").mnemonic.rfind("sha512h", 0), 0u) << s.uses.at("sha512").mnemonic;
  EXPECT_NE(s.uses.at("sha512").where.find("round512"), std::string::npos) << s.uses.at("sha512").where;
  ASSERT_TRUE(s.uses.contains("sha2"));
  EXPECT_NE(s.uses.at("sha2").where.find("caller"), std::string::npos);
  EXPECT_EQ(s.functions.size(), 2u);

  // Judged as the column judges: sha512 is not allowed by sha2.
  const auto ok = allowed({"sha2"}, Arch::kArm64);
  EXPECT_EQ(std::find(ok.begin(), ok.end(), "sha512"), ok.end());

  // As a shared object (a tree's module) the call goes through the PLT,
  // and is followed to round512 all the same.
  const std::string so = gcc + " -O1 -fPIC -shared -march=armv8.2-a+sha3 -nostdlib -Wl,-e,caller -o " +
                         (dir / "t.so").string() + " " + (dir / "t.c").string();
  ASSERT_EQ(std::system(so.c_str()), 0) << so;
  const std::uint64_t shared_entries[] = {elf_entry(dir / "t.so")};
  const Scan sh = scan_arm64_file((dir / "t.so").string(), shared_entries);
  EXPECT_TRUE(sh.problems.empty()) << sh.problems.front();
  ASSERT_TRUE(sh.uses.contains("sha512")) << "the call through the PLT was not followed; " << sh.external_calls
                                           << " external calls";
  EXPECT_NE(sh.uses.at("sha512").where.find("round512"), std::string::npos);
  EXPECT_EQ(sh.external_calls, 0u);

  // An address no symbol covers is a problem, not a pass.
  const std::uint64_t nowhere[] = {1};
  const Scan none = scan_arm64_file((dir / "t").string(), nowhere);
  EXPECT_FALSE(none.problems.empty());
  EXPECT_EQ(none.instructions, 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lockstep::isa
