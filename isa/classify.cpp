#include "isa/classify.h"

#include <string_view>
#include <utility>

namespace lockstep::isa::detail {
namespace {

// Zydis ISA sets (ZydisISASetGetString, with its prefix) by the start of
// their name, to the extensions they need; first match wins. Sets of the
// x86-64 baseline map to nothing. A set not listed is reported under its
// own name, lower case: unknown means undeclared, never allowed.
constexpr std::pair<std::string_view, std::string_view> kSets[] = {
    // AVX-512: _512 and SCALAR need F (or the named subset); _128 and _256 VL too.
    {"AVX512F_512", "avx512f"},         {"AVX512F_SCALAR", "avx512f"},
    {"AVX512F_KOP", "avx512f"},         {"AVX512F_", "avx512f avx512vl"},
    {"AVX512BW_512", "avx512bw"},       {"AVX512BW_KOP", "avx512bw"},
    {"AVX512BW_", "avx512bw avx512vl"}, {"AVX512_VBMI_512", "avx512vbmi"},
    {"AVX512_VBMI_", "avx512vbmi avx512vl"},
    {"AVX512DQ_512", "avx512dq"},       {"AVX512DQ_SCALAR", "avx512dq"},
    {"AVX512DQ_KOP", "avx512dq"},       {"AVX512DQ_", "avx512dq avx512vl"},
    {"AVX2GATHER", "avx2"},             {"AVX2", "avx2"},
    {"AVXAES", "aes avx"},              {"AVX_VNNI", "avx_vnni"},
    {"AVX_GFNI", "gfni avx"},           {"AVX", "avx"},
    {"SSSE3MMX", "ssse3"},              {"SSSE3", "ssse3"},
    {"SSE42", "sse4_2"},                {"SSE4A", "sse4a"},
    {"SSE4", "sse4_1"},                 {"SSE3X87", "sse3"},
    {"SSE3", "sse3"},                   {"SHA", "sha_ni"},
    {"BMI1", "bmi1"},                   {"BMI2", "bmi2"},
    {"ADOX_ADCX", "adx"},               {"LZCNT", "abm"},
    {"POPCNT", "popcnt"},               {"MOVBE", "movbe"},
    {"PCLMULQDQ", "pclmul"},            {"AES", "aes"},
    {"FMA4", "fma4"},                   {"FMA", "fma"},
    {"F16C", "f16c"},                   {"PADLOCK_PHE", "phe"},
    // The baseline: every x86-64 CPU runs these.
    {"I86", ""},   {"I186", ""},     {"I286", ""},   {"I386", ""},     {"I486", ""},
    {"PENTIUM", ""}, {"PPRO", ""},   {"LONGMODE", ""}, {"CMOV", ""},   {"FCMOV", ""},
    {"X87", ""},   {"SSE2", ""},     {"SSEMXCSR", ""}, {"SSE_PREFETCH", ""}, {"SSE", ""},
    {"FAT_NOP", ""}, {"PAUSE", ""},  {"CLFSH", ""},  {"LAHF", ""},     {"CMPXCHG16B", ""},
    {"PREFETCH_NOP", ""}, {"FXSAVE", ""}, {"CET", ""},
};

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const size_t sp = s.find(' ');
    out.emplace_back(s.substr(0, sp));
    s = sp == std::string_view::npos ? std::string_view{} : s.substr(sp + 1);
  }
  return out;
}

}  // namespace

std::vector<std::string> extensions_of(const ZydisDecodedInstruction& insn) {
  const char* raw = ZydisISASetGetString(insn.meta.isa_set);
  std::string_view name = raw ? raw : "";
  if (name.starts_with("ZYDIS_ISA_SET_")) name.remove_prefix(14);
  for (const auto& [prefix, extensions] : kSets)
    if (name.starts_with(prefix)) return words(extensions);
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return {lower};
}

Unknown decode_unknown(const std::uint8_t* c, size_t size) {
  // VEX3 (C4), map 0F38, pp F2: VSHA512MSG1 CC, VSHA512MSG2 CD,
  // VSHA512RNDS2 CB; the register forms the code using them is written
  // with (mod 11): 5 bytes.
  if (size >= 5 && c[0] == 0xc4 && (c[1] & 0x1f) == 2 && (c[2] & 3) == 3 && (c[4] >> 6) == 3) {
    if (c[3] == 0xcc) return {5, "vsha512msg1", "sha512"};
    if (c[3] == 0xcd) return {5, "vsha512msg2", "sha512"};
    if (c[3] == 0xcb) return {5, "vsha512rnds2", "sha512"};
  }
  // PadLock's REP XSHA512 (F3 0F A6 E0).
  if (size >= 4 && c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0xa6 && c[3] == 0xe0) return {4, "rep xsha512", "phe2"};
  return {};
}

}  // namespace lockstep::isa::detail
