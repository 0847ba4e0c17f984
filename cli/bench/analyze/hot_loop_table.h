// Which function holds each backend's hot loop, and how much of a block
// one pass of that loop does: data for `lockstep bench --analyze`, kept in
// hot_loop_table.cpp, beside the llvm-mca models it predicts for.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace lockstep::cli::analyze {

struct HotLoopRow {
  std::string_view backend;    // "sha256/x86-shani", as lockstep list names it
  std::string_view algorithm;  // lockstep_bench's: "sha256", "sha512", "chacha20"
  // The function: the source file its local symbol follows ("" for any),
  // and an ECMAScript regex searched in its demangled name.
  std::string_view file, symbol;
  // One pass of the loop does blocks / passes of the work of a block:
  // ChaCha20's 16 blocks in 5 passes of two double rounds each, or
  // SHA-256's one block in 64 passes of one round.
  double blocks = 1, passes = 1;
  std::size_t block_bytes = 64;

  double blocks_per_pass() const { return blocks / passes; }
};

// hot_loop_rows lists lockstep's own x86-64 backends.
std::span<const HotLoopRow> hot_loop_rows();

// mca_models are the CPUs predicted for, as llvm-mca's -mcpu names them.
std::span<const std::string_view> mca_models();

// host_model is the model standing for the CPU generation a run was
// measured on (bench/cpu_generation.h's names), "" for none; `guess` is
// set when it stands for a whole vendor rather than the very core.
std::string_view host_model(std::string_view generation, bool* guess = nullptr);

}  // namespace lockstep::cli::analyze
