// Calling-convention checks, in the spirit of BoringSSL's CHECK_ABI.
//
// abi::call runs a function through a small assembly trampoline that fills
// the registers the callee must preserve with fresh random values, makes the
// call, and then compares. Every register the callee failed to preserve is
// named in the Report:
//
//   x86-64 System V  rbx rbp r12 r13 r14 r15, rsp; the direction flag clear
//                    on return; MXCSR's control bits and the x87 control word
//                    unchanged. A warning, not a failure, where the callee
//                    left upper vector state dirty (no vzeroupper).
//   AArch64 AAPCS64  x19..x28, x29, sp, and d8..d15 (the low 64 bits of
//                    v8..v15; the upper halves are the callee's to change).
//
// Elsewhere the function is simply called and Report::supported is false.
// Only integer and pointer arguments, at most six: each goes in one general
// register, which covers every function lockstep checks.
//
//   abi::Report r;
//   abi::call(r, backend.sha256_blocks, &state, data, nblocks);
//   if (!r.ok()) fail(r.to_string());   // "clobbered: rbx, r12"
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "abi/call_words.h"

namespace lockstep::abi {

struct Report {
  // Register names, in the order the ABI lists them: "rbx", "r12", "rsp",
  // "direction flag", "mxcsr", "x87 control word"; "x19", "x29", "sp", "d8".
  std::vector<std::string> clobbered;
  // x86-64 only, a warning: the callee returned with AVX or AVX-512 upper
  // state in use. Never set where can_check_upper_vector_state() is false.
  bool upper_vector_state_dirty = false;
  // False where this build has no trampoline: nothing was checked.
  bool supported = true;

  bool ok() const { return clobbered.empty(); }
  // "ok", "clobbered: rbx, mxcsr", with the warning or "not checked" added.
  std::string to_string() const;
};

#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__))
inline constexpr bool kSupported = true;
#else
inline constexpr bool kSupported = false;
#endif

inline constexpr std::size_t kMaxArgs = 6;

// Whether calls on this CPU can tell dirty upper vector state: x86-64 with
// AVX, where XGETBV with ECX=1 (XINUSE) works and tracks vzeroupper (QEMU's
// claims the feature but reports the AVX state in use always).
bool can_check_upper_vector_state();

// Whether this CPU reports the upper state clean after a zeroing idiom
// (vpxor ymm, ymm, ymm right after vzeroupper): AMD's Zen cores do. There a
// vzeroupper missing after code that left only zeros in the upper halves is
// invisible, and a clean report does not judge it. False where nothing can
// be checked at all.
bool upper_state_blind_to_zeroing_idioms();

// Any function, as the trampoline takes it.
using RawFunction = void (*)();

// The untyped call: args (at most kMaxArgs) go in the first integer argument
// registers, and the full integer return register comes back, upper bits
// and all, whatever the function's return type. report is overwritten.
std::uintptr_t call_raw(Report& report, RawFunction fn, std::span<const std::uintptr_t> args);

// call_raw_preserving is call_raw without a report: the callee still runs
// between planted values and the caller's registers are put back after it,
// but nothing is compared and nothing allocated, so code that a signal
// handler may re-enter (a hash called from an interrupt) can use it.
std::uintptr_t call_raw_preserving(RawFunction fn, std::span<const std::uintptr_t> args);


namespace detail {

// typed runs fn(args...) through the trampoline, with a report or without.
template <class R, class... Args>
R typed(Report* report, R (*fn)(Args...), Args... args) {
  static_assert(sizeof...(Args) <= kMaxArgs, "abi::call passes at most six arguments");
  static_assert((words::is_word<Args>() && ...), "abi::call passes only integer and pointer arguments");
  static_assert(std::is_void_v<R> || words::is_word<R>(), "abi::call returns only void, integers and pointers");
  if constexpr (!kSupported) {
    if (report) {
      *report = Report{};
      report->supported = false;
    }
    return fn(args...);
  } else {
    // One spare element: a zero-length array is not C++.
    const std::uintptr_t packed[sizeof...(Args) + 1] = {words::to_word<Args>(args)...};
    const auto raw = reinterpret_cast<RawFunction>(fn);
    const std::span<const std::uintptr_t> list(packed, sizeof...(Args));
    const std::uintptr_t result = report ? call_raw(*report, raw, list) : call_raw_preserving(raw, list);
    if constexpr (!std::is_void_v<R>) return words::from_word<R>(result);
  }
}

}  // namespace detail

// The typed call: fn(args...) through the trampoline. Args are deduced from
// fn alone, so call(r, blocks, &st, data, 1) converts 1 to size_t.
template <class R, class... Args>
R call(Report& report, R (*fn)(Args...), std::type_identity_t<Args>... args) {
  return detail::typed<R, Args...>(&report, fn, args...);
}

// The same without a report (call_raw_preserving).
template <class R, class... Args>
R call_preserving(R (*fn)(Args...), std::type_identity_t<Args>... args) {
  return detail::typed<R, Args...>(nullptr, fn, args...);
}

}  // namespace lockstep::abi
