// The isa engine on code whose extensions are known: encodings from the
// Intel SDM decoded one by one, and functions of this test compiled for an
// extension, reached directly and through a call.
#include "isa/isa.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "isa/classify.h"

namespace lockstep::isa {
namespace {

std::vector<std::string> needs_of(std::vector<uint8_t> bytes) {
  ZydisDecoder d;
  EXPECT_TRUE(ZYAN_SUCCESS(ZydisDecoderInit(&d, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)));
  ZydisDecodedInstruction insn;
  ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
  if (ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d, bytes.data(), bytes.size(), &insn, ops)))
    return detail::extensions_of(insn);
  const detail::Unknown u = detail::decode_unknown(bytes.data(), bytes.size());
  return u.length ? std::vector<std::string>{u.extension} : std::vector<std::string>{"undecodable"};
}

bool has(const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(IsaClassify, KnownEncodings) {
  EXPECT_TRUE(needs_of({0x66, 0x0f, 0x38, 0x00, 0xc1}) == std::vector<std::string>{"ssse3"});  // pshufb xmm0, xmm1
  EXPECT_TRUE(needs_of({0xc4, 0xe3, 0x7b, 0xf0, 0xc3, 0x06}) == std::vector<std::string>{"bmi2"});  // rorx eax, ebx, 6
  EXPECT_TRUE(has(needs_of({0xc5, 0xf5, 0xfe, 0xc2}), "avx2"));  // vpaddd ymm0, ymm1, ymm2
  EXPECT_TRUE(has(needs_of({0x0f, 0x38, 0xcb, 0xc1}), "sha_ni"));  // sha256rnds2 xmm0, xmm1
  // vprold zmm1, zmm1, 16 (EVEX.512): AVX-512F; the same on ymm also needs
  // VL. (Capstone 4.0.2 cannot decode this one.)
  const auto z = needs_of({0x62, 0xf1, 0x75, 0x48, 0x72, 0xc9, 0x10});
  EXPECT_TRUE(has(z, "avx512f") && !has(z, "avx512vl")) << z.front();
  const auto y = needs_of({0x62, 0xf1, 0x75, 0x28, 0x72, 0xc9, 0x10});
  EXPECT_TRUE(has(y, "avx512f") && has(y, "avx512vl")) << y.front();
  // vsha512rnds2 ymm1, ymm2, xmm3 (VEX.256.F2.0F38.W0 CB /r), which Zydis 4.0 predates.
  EXPECT_TRUE(needs_of({0xc4, 0xe2, 0x6f, 0xcb, 0xcb}) == std::vector<std::string>{"sha512"});
  EXPECT_TRUE(needs_of({0xf3, 0x0f, 0xa6, 0xd0}) == std::vector<std::string>{"phe"});  // rep xsha256
  // vpermb zmm0, zmm1, zmm2 (EVEX.512.66.0F38.W0 8D /r).
  EXPECT_TRUE(needs_of({0x62, 0xf2, 0x75, 0x48, 0x8d, 0xc2}) == std::vector<std::string>{"avx512vbmi"});
  EXPECT_TRUE(needs_of({0x48, 0x01, 0xd8}).empty());  // add rax, rbx
}

__attribute__((noinline)) unsigned rotate_bmi2(unsigned x) {
  unsigned r;
  asm("rorx $7, %1, %0" : "=r"(r) : "r"(x));
  return r;
}
__attribute__((noinline)) unsigned calls_bmi2(unsigned x) { return rotate_bmi2(x) + 1; }
__attribute__((noinline)) unsigned plain(unsigned x) { return x * 3 + 1; }

TEST(IsaScan, FindsTheExtensionOfAFunctionAndOfWhatItCalls) {
  const void* direct[] = {reinterpret_cast<const void*>(&rotate_bmi2)};
  const Scan a = scan(direct);
  EXPECT_TRUE(a.problems.empty()) << a.problems.front();
  ASSERT_TRUE(a.uses.contains("bmi2"));
  EXPECT_NE(a.uses.at("bmi2").mnemonic.find("rorx"), std::string::npos);
  EXPECT_NE(a.uses.at("bmi2").where.find("rotate_bmi2"), std::string::npos);

  const void* caller[] = {reinterpret_cast<const void*>(&calls_bmi2)};
  const Scan b = scan(caller);
  EXPECT_TRUE(b.uses.contains("bmi2")) << "the call into rotate_bmi2 was not followed";
  EXPECT_GE(b.functions.size(), 2u);

  const void* none[] = {reinterpret_cast<const void*>(&plain)};
  const Scan c = scan(none);
  EXPECT_TRUE(c.uses.empty());
  EXPECT_GT(c.instructions, 0u);
  EXPECT_EQ(plain(1) + calls_bmi2(1), 4u + rotate_bmi2(1) + 1);
}

TEST(IsaScan, AnAddressWithoutASymbolIsAProblemNotAPass) {
  static const uint8_t data[16] = {};
  const void* entry[] = {data};
  const Scan s = scan(entry);
  EXPECT_FALSE(s.problems.empty());
  EXPECT_EQ(s.instructions, 0u);
}

TEST(IsaAllowed, ImpliedAsGccImpliesThem) {
  const auto a = allowed({"avx2"});
  for (const char* f : {"avx2", "avx", "sse4_2", "sse4_1", "ssse3", "sse3", "sse2"}) EXPECT_TRUE(has(a, f)) << f;
  EXPECT_FALSE(has(a, "bmi2"));
  EXPECT_FALSE(has(allowed({}), "ssse3"));
  EXPECT_TRUE(has(allowed({"avx512vl"}), "avx2"));
}

}  // namespace
}  // namespace lockstep::isa
