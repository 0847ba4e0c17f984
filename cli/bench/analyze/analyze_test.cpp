// bench --analyze's parts on inputs whose answers are known by hand: loops
// in hand-assembled bytes, a loop assembled into this test binary and
// found through its ELF symbol, llvm-mca's JSON, the measured stand-in's
// arithmetic and the table with a model missing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bench/analyze/analyze_report.h"
#include "bench/analyze/binary_code.h"
#include "bench/analyze/hot_loop.h"
#include "bench/analyze/hot_loop_table.h"
#include "bench/analyze/mca.h"
#include "bench/analyze/measured_cycles.h"

// A loop of five instructions, from the label `1:` to the `jnz`, in a
// function of its own with an ELF symbol (type and size), as the backends'
// functions have. Pushed and popped: the compiler's own output goes on in
// whatever section it was in.
asm(R"(
        .pushsection .text
        .globl lockstep_analyze_test_loop
        .type lockstep_analyze_test_loop, @function
lockstep_analyze_test_loop:
        mov $100, %ecx
        xor %eax, %eax
1:      add %ecx, %eax
        imul %eax, %edx
        xor %edx, %eax
        dec %ecx
        jnz 1b
        ret
        .size lockstep_analyze_test_loop, .-lockstep_analyze_test_loop
        .popsection
)");

namespace lockstep::cli::analyze {
namespace {

using ::testing::HasSubstr;

Disassembly decode(const std::vector<std::uint8_t>& bytes) { return disassemble(bytes, 0x1000); }

TEST(HotLoop, FindsTheOneLoopOfHandAssembledBytes) {
  const Disassembly d = decode({
      0x31, 0xc0,  // 1000: xor eax, eax
      0x01, 0xc8,  // 1002: add eax, ecx   <- the loop
      0xff, 0xc9,  // 1004: dec ecx
      0x75, 0xfa,  // 1006: jnz 1002
      0xc3,        // 1008: ret
  });
  ASSERT_EQ(d.problem, "");
  ASSERT_EQ(d.instructions.size(), 5u);
  const auto loops = innermost_loops(d);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].first, 1u);
  EXPECT_EQ(loops[0].last, 3u);
  const auto hot = hot_loop(d);
  ASSERT_TRUE(hot);
  EXPECT_EQ(loop_assembly(d, *hot),
            ".intel_syntax noprefix\n"
            ".L1002:\n"
            "\tadd eax, ecx\n"
            "\tdec ecx\n"
            "\tjnz .L1002\n"
            ".Lout:\n");
}

TEST(HotLoop, TheInnerOfTwoNestedLoops) {
  const Disassembly d = decode({
      0xb9, 0x03, 0x00, 0x00, 0x00,  // 1000: mov ecx, 3
      0xba, 0x04, 0x00, 0x00, 0x00,  // 1005: mov edx, 4    <- outer
      0x01, 0xd0,                    // 100a: add eax, edx  <- inner
      0xff, 0xca,                    // 100c: dec edx
      0x75, 0xfa,                    // 100e: jnz 100a
      0xff, 0xc9,                    // 1010: dec ecx
      0x75, 0xf1,                    // 1012: jnz 1005
      0xc3,                          // 1014: ret
  });
  const auto loops = innermost_loops(d);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(d.instructions[loops[0].first].address, 0x100au);
  EXPECT_EQ(loops[0].size(), 3u);
}

TEST(HotLoop, TheBiggerOfTwoLoopsSideBySide) {
  const Disassembly d = decode({
      0xff, 0xc9,  // 1000: dec ecx      <- two instructions
      0x75, 0xfc,  // 1002: jnz 1000
      0x01, 0xc8,  // 1004: add eax, ecx <- four
      0x01, 0xc3,  // 1006: add ebx, eax
      0xff, 0xca,  // 1008: dec edx
      0x75, 0xf8,  // 100a: jnz 1004
      0xc3,        // 100c: ret
  });
  EXPECT_EQ(innermost_loops(d).size(), 2u);
  const auto hot = hot_loop(d);
  ASSERT_TRUE(hot);
  EXPECT_EQ(d.instructions[hot->first].address, 0x1004u);
  EXPECT_EQ(hot->size(), 4u);
}

TEST(HotLoop, NoLoopAcrossAReturnOrThroughAPlainJump) {
  // A cold block jumping back to the epilogue, and a conditional jump back
  // over a return: neither runs its "body" again.
  EXPECT_FALSE(hot_loop(decode({
      0xc3,        // 1000: ret
      0xeb, 0xfd,  // 1001: jmp 1000
  })));
  EXPECT_FALSE(hot_loop(decode({
      0x01, 0xc8,  // 1000: add eax, ecx
      0xc3,        // 1002: ret
      0x75, 0xfb,  // 1003: jnz 1000
  })));
}

TEST(HotLoop, PaddingAndMemorySizesAsLlvmMcReadsThem) {
  // clang pads loops with long NOPs inside them, and an instrumented build
  // counts in memory: a plain nop, and the size spelled out.
  const Disassembly d = decode({
      0x0f, 0x1f, 0x40, 0x00,              // 1000: nop dword ptr [rax+0x0]
      0xfe, 0x05, 0x00, 0x00, 0x00, 0x00,  // 1004: inc byte ptr [rip+0x0]
      0xff, 0xc9,                          // 100a: dec ecx
      0x75, 0xf2,                          // 100c: jnz 1000
      0xc3,                                // 100e: ret
  });
  const auto hot = hot_loop(d);
  ASSERT_TRUE(hot);
  const std::string text = loop_assembly(d, *hot);
  EXPECT_THAT(text, HasSubstr(".L1000:\n\tnop\n\tinc byte ptr [rip"));
}

TEST(HotLoop, UndecodableBytesAreAProblem) {
  // 0x06 (push es) does not exist in 64-bit mode.
  const Disassembly d = decode({0x01, 0xc8, 0x06, 0xc3});
  EXPECT_EQ(d.instructions.size(), 1u);
  EXPECT_THAT(d.problem, HasSubstr("+0x2"));
}

TEST(HotLoop, AnSha512ExtensionInstructionIsNamed) {
  // VSHA512RNDS2 ymm1, ymm2, xmm3 (VEX.256.F2.0F38 CB /r), which Zydis 4.0
  // predates.
  const Disassembly d = decode({0x01, 0xc8, 0xc4, 0xe2, 0x6f, 0xcb, 0xcb});
  EXPECT_THAT(d.problem, HasSubstr("vsha512rnds2 at +0x2"));
}

TEST(HotLoop, ALoopAssembledIntoThisBinaryFoundByItsSymbol) {
  const BinaryCode code("/proc/self/exe");
  ASSERT_FALSE(code.empty());
  const HotLoopRow row{"test/loop", "test", "", R"(^lockstep_analyze_test_loop$)", 1, 1, 64};
  const FoundLoop loop = code.hot_loop(row);
  ASSERT_EQ(loop.problem, "");
  EXPECT_EQ(loop.function, "lockstep_analyze_test_loop");
  EXPECT_EQ(loop.instructions, 5u);
  EXPECT_THAT(loop.assembly, HasSubstr("\tadd eax, ecx\n\timul edx, eax\n\txor eax, edx\n\tdec ecx\n\tjnz .L"));

  const FoundLoop none = code.hot_loop({"test/none", "test", "", R"(^no_such_function_here$)", 1, 1, 64});
  EXPECT_THAT(none.problem, HasSubstr("no function matches"));
}

// llvm-mca reads the loop back as the five instructions it is, where it is
// installed (bench.analyze, the shell test, runs the whole command).
TEST(HotLoop, LlvmMcaReadsTheLoopBack) {
  if (std::system("command -v llvm-mca-19 > /dev/null 2>&1") != 0) GTEST_SKIP() << "llvm-mca-19 is not installed";
  const FoundLoop loop =
      BinaryCode("/proc/self/exe").hot_loop({"t", "t", "", R"(^lockstep_analyze_test_loop$)", 1, 1, 64});
  const auto dir = std::filesystem::temp_directory_path();
  const auto pid = std::to_string(getpid());
  const std::string s = (dir / ("analyze_test_" + pid + ".s")).string();
  const std::string j = (dir / ("analyze_test_" + pid + ".json")).string();
  std::ofstream(s) << loop.assembly;
  std::string command;
  for (const std::string& a : mca_command("llvm-mca-19", "znver4", s, j)) command += "'" + a + "' ";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(j);
  const nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(s);
  std::filesystem::remove(j);
  const auto& summary = report["CodeRegions"][0]["SummaryView"];
  EXPECT_EQ(summary["Instructions"].get<int>(), 5 * kMcaIterations);
  EXPECT_TRUE(cycles_per_pass(report).per_pass);
}

TEST(Mca, CyclesPerPassFromTheSummary) {
  const auto report = nlohmann::json::parse(R"({"CodeRegions": [{
      "Instructions": ["add\teax, ecx", "dec\tecx"],
      "InstructionInfoView": {"InstructionList": [{"hasUnmodeledSideEffects": false},
                                                  {"hasUnmodeledSideEffects": false}]},
      "SummaryView": {"Iterations": 200, "TotalCycles": 604}}]})");
  const McaCycles c = cycles_per_pass(report);
  ASSERT_TRUE(c.per_pass) << c.problem;
  EXPECT_DOUBLE_EQ(*c.per_pass, 3.02);
}

TEST(Mca, AnUnmodelledInstructionIsNoPrediction) {
  const auto report = nlohmann::json::parse(R"({"CodeRegions": [{
      "Instructions": ["add\teax, ecx", "rep\t\txsha256"],
      "InstructionInfoView": {"InstructionList": [{"hasUnmodeledSideEffects": false},
                                                  {"hasUnmodeledSideEffects": true}]},
      "SummaryView": {"Iterations": 100, "TotalCycles": 10003}}]})");
  const McaCycles c = cycles_per_pass(report);
  EXPECT_FALSE(c.per_pass);
  EXPECT_EQ(c.problem, "llvm-mca does not model `rep xsha256`");
  EXPECT_FALSE(cycles_per_pass(nlohmann::json::object()).per_pass);
}

TEST(Measured, CyclesPerBlockBetweenTheTwoLengths) {
  // 4096 B in 1000 ns, 16384 B in 4840 ns: 3840 ns over 192 blocks of 64 B
  // is 20 ns a block, 60 cycles at 3000 MHz.
  bench_report::Series s;
  s.mbps = {{4096, 4096.0 * 1000 / 1000}, {16384, 16384.0 * 1000 / 4840}};
  const Measured m = measured_cycles_per_block(s, 64, 3000);
  ASSERT_TRUE(m.cycles_per_block) << m.problem;
  EXPECT_NEAR(*m.cycles_per_block, 60, 1e-9);
  EXPECT_FALSE(measured_cycles_per_block(s, 64, 0).cycles_per_block);
  s.mbps.erase(16384);
  EXPECT_THAT(measured_cycles_per_block(s, 64, 3000).problem, HasSubstr("16384"));
}

TEST(HotLoopTable, HostModels) {
  bool guess = true;
  EXPECT_EQ(host_model("Zen 4", &guess), "znver4");
  EXPECT_FALSE(guess);
  EXPECT_EQ(host_model("Zen 5"), "znver5");
  EXPECT_EQ(host_model("Intel", &guess), "sapphirerapids");
  EXPECT_TRUE(guess);
  EXPECT_EQ(host_model("Zen 2"), "");
}

TEST(AnalyzeReport, AMissingModelIsADashWithItsReason) {
  Analysis a;
  a.models = {"znver4", "znver5", "sapphirerapids", "icelake-server"};
  a.host_generation = "Zen 4";
  a.host_model = "znver4";
  a.mhz = 3000;
  a.binary = "lockstep_bench";
  BackendAnalysis b;
  b.backend = "sha256/generic";
  b.predicted["znver4"] = {100, ""};
  b.predicted["znver5"] = {{}, "llvm-mca: error: unknown CPU"};
  b.predicted["sapphirerapids"] = {120, ""};
  // icelake-server: no entry at all.
  b.measured = {80, ""};
  b.function = "lockstep::generic_blocks(int)";
  b.address = 0x1234;
  b.instructions = 47;
  b.blocks_per_pass = 1.0 / 64;
  a.backends.push_back(b);

  const std::string md = analyze_markdown(a);
  EXPECT_THAT(md, HasSubstr("| backend | znver4 | znver5 | sapphirerapids | icelake-server | host measured | "
                            "error on host |\n"));
  EXPECT_THAT(md, HasSubstr("| sha256/generic | 100.0 | - | 120.0 | - | 80.0 | +25% |\n"));
  EXPECT_THAT(md, HasSubstr("- sha256/generic: znver5: llvm-mca: error: unknown CPU\n"));
  EXPECT_THAT(md, HasSubstr("- sha256/generic: icelake-server: not predicted\n"));
  EXPECT_THAT(md, HasSubstr("| sha256/generic | `lockstep::generic_blocks` | 0x1234 | 47 | 0.0156 |\n"));

  // An error that rounds to nothing has no sign.
  a.backends[0].measured = {99.9, ""};
  EXPECT_THAT(analyze_markdown(a), HasSubstr("| 99.9 | 0% |\n"));
  a.backends[0].measured = {80, ""};

  // Without the host model's prediction there is no error to give.
  a.backends[0].predicted.erase("znver4");
  EXPECT_THAT(analyze_markdown(a), HasSubstr("| sha256/generic | - | - | 120.0 | - | 80.0 | - |\n"));
}

}  // namespace
}  // namespace lockstep::cli::analyze
