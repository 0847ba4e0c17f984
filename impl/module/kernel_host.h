// The kernel environment's host side: what a module built with
// lockstep/kernel_compat.h asks of the program that loaded it
// (lockstep/kernel_host.h), answered from the environment a check runs in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lockstep/kernel_host.h"

namespace lockstep::module::kernel {

// The table the loader hands every module that defines
// lockstep_kernel_host_v1.
const lockstep_kernel_host* host();

// What irq_fpu_usable(), may_use_simd() and crypto_simd_usable() answer:
// kUsable (the default), kUnusable (every glue takes its generic fallback),
// kAlternate (usable and unusable by turns, so a message's blocks go down
// both paths, as the kernel's interrupt_context_2 case intends).
// LOCKSTEP_KERNEL_SIMD=usable|unusable|alternate sets it for the process;
// a bad value stops the program with exit status 2, naming the variable.
enum class Simd { kUsable, kUnusable, kAlternate };
Simd simd_mode();
// A test sets it for its thread; reset goes back to the environment's.
void set_thread_simd_mode(Simd mode);
void reset_thread_simd_mode();

// What the glue of each module selected while its init ran: one line per
// static_call_update() and static_branch_enable(), in order, each prefixed
// with the module's file. The loader names the module around its entry call.
std::vector<std::string> selections();
void begin_module_init(std::string_view file);
void end_module_init();

// The calling thread's kernel_fpu/neon sections so far.
struct SectionStats {
  uint64_t sections = 0;           // completed begin..end pairs
  uint64_t dirty_upper_at_end = 0;  // x86: ymm/zmm upper state in use at the end
  bool open = false;               // a section is open now
};
SectionStats section_stats();

}  // namespace lockstep::module::kernel
