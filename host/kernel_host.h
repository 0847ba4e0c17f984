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
  uint64_t saves = 0;              // of the interrupted code's vector state
  uint64_t restores = 0;           // of it, at a section's end or a return to user space
};
SectionStats section_stats();

// What a section does with the vector state of the code it interrupts, for
// the calling thread (kernel_sections.c says how and why):
// kStrict (every thread starts with it; every check runs with it): saved
//   at each begin, restored at each end, so the caller's registers and
//   control words are back after every end, which the abi check relies on.
// kLazy (lockstep_bench's main selects it, so that a module's rows cost
//   what they would in a kernel): the kernel's own way for a user task on
//   x86-64. The first begin of a simulated entry into the kernel saves,
//   once (XSAVEOPT where the CPU has it), ends restore nothing, and
//   return_to_user() restores, as the kernel's return to user space does.
//   Its host calls return_to_user() where a system call would return.
// set_thread_fpu_model returns the model in effect: kStrict when asked for
// kLazy on arm64, which keeps the strict model (kernel_sections.c). A
// change while a section is open or an entry's state is still saved stops
// the program, as sections out of balance do.
enum class FpuModel { kStrict, kLazy };
FpuModel set_thread_fpu_model(FpuModel model);
FpuModel thread_fpu_model();
// The simulated return to user space of the calling thread's entry: the
// state its first section saved is put back (lazy; nothing to do in the
// strict model or when no section ran). An open section stops the program.
void return_to_user();

// How the calling thread's model saves and restores, for reports.
struct FpuModelInfo {
  const char* model = "";    // "strict", "lazy"
  const char* save = "";     // "XSAVEOPT", "XSAVE", "FXSAVE", arm64's stores
  const char* restore = "";  // "XRSTOR", ...
  uint32_t area_bytes = 0;   // the save area for XCR0's components
  uint64_t xcr0 = 0;         // the components saved (0 off x86)
};
FpuModelInfo fpu_model_info();

}  // namespace lockstep::module::kernel
