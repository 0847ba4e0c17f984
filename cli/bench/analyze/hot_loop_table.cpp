// The hot loops of lockstep's x86-64 backends, as GCC 12 -O2 lays them out
// (look with `objdump -dC` when a backend changes shape). Only the hot
// loop is predicted: work outside it (SHA's message schedule in its own
// loop, ChaCha's feed-forward and stores) is left out, so predictions are
// lower bounds, more so where that work is larger.
#include "bench/analyze/hot_loop_table.h"

#include <array>

namespace lockstep::cli::analyze {
namespace {

constexpr std::array kRows = {
    // The round loop, one round a pass (the schedule is a loop of its own).
    HotLoopRow{"sha256/generic", "sha256", "generic.cpp",
               R"(^void lockstep::sha2::generic_blocks<.*Sha256Params>\()", 1, 64, 64},
    // A block a pass, every round unrolled.
    HotLoopRow{"sha256/x86-shani", "sha256", "x86_shani.cpp", R"(::blocks_shani\()", 1, 1, 64},
    // Sixteen rounds of the pair's first block a pass, under the schedule
    // of both: four passes' worth a block.
    HotLoopRow{"sha256/x86-avx2", "sha256", "x86_avx2.cpp", R"(::blocks_avx2\()", 1, 4, 64},
    // REP XSHA256 hashes every block in one instruction.
    HotLoopRow{"sha256/x86-phe", "sha256", "", R"(phe_blocks<lockstep::sha2::Sha256Family)", 1, 1, 64},
    HotLoopRow{"sha512/generic", "sha512", "generic.cpp",
               R"(^void lockstep::sha2::generic_blocks<.*Sha512Params>\()", 1, 80, 128},
    // One block a pass, its rounds unrolled, the schedule pipelined under them.
    HotLoopRow{"sha512/x86-avx2", "sha512", "x86_avx2.cpp", R"(::avx2::blocks\()", 1, 1, 128},
    HotLoopRow{"sha512/x86-avx512vl", "sha512", "x86_avx512vl.cpp", R"(::avx512vl::blocks\()", 1, 1, 128},
    HotLoopRow{"sha512/x86-sha512ext", "sha512", "x86_sha512ext.cpp", R"(::blocks_sha512ext\()", 1, 1, 128},
    HotLoopRow{"sha512/x86-phe", "sha512", "", R"(phe_blocks<lockstep::sha2::Sha512Family)", 1, 1, 128},
    // ChaCha20: ten double rounds a block group, one a pass unless noted.
    HotLoopRow{"chacha/generic", "chacha20", "", R"(^lockstep::chacha::permute\()", 1, 10, 64},
    HotLoopRow{"chacha/x86-ssse3", "chacha20", "x86_ssse3.cpp", R"(chacha::.*::block4\()", 4, 10, 64},
    HotLoopRow{"chacha/x86-avx2", "chacha20", "x86_avx2.cpp", R"(chacha::.*::block8\()", 8, 10, 64},
    HotLoopRow{"chacha/x86-avx512vl", "chacha20", "x86_avx512vl.cpp", R"(chacha::.*::block8\()", 8, 10, 64},
    // Two double rounds a pass; the first one and a half sit before the
    // loop, counted here as passes of their own.
    HotLoopRow{"chacha/x86-avx512f", "chacha20", "x86_avx512f.cpp", R"(chacha::.*::block16\()", 16, 5, 64},
};

constexpr std::array<std::string_view, 4> kModels = {"znver4", "znver5", "sapphirerapids", "icelake-server"};

struct HostModel {
  std::string_view generation, model;
  bool guess;
};
// An Intel host could be any core: Sapphire Rapids is the newest server
// core llvm-mca models, a guess that the report says is one.
constexpr std::array<HostModel, 3> kHostModels = {{
    {"Zen 4", "znver4", false},
    {"Zen 5", "znver5", false},
    {"Intel", "sapphirerapids", true},
}};

}  // namespace

std::span<const HotLoopRow> hot_loop_rows() { return kRows; }

std::span<const std::string_view> mca_models() { return kModels; }

std::string_view host_model(std::string_view generation, bool* guess) {
  for (const HostModel& h : kHostModels)
    if (h.generation == generation) {
      if (guess) *guess = h.guess;
      return h.model;
    }
  if (guess) *guess = false;
  return {};
}

}  // namespace lockstep::cli::analyze
