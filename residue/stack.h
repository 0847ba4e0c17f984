// residue::Stack runs a function on a stack of its own, filled with a known
// pattern, so that what the function leaves below its stack pointer can be
// read after it returns, together with the vector registers as it left
// them. The residue check (conformance/residue_conformance.cpp) looks there
// for the secrets the call was given or derived: the promise the kernel's
// memzero_explicit() calls make.
//
//   residue::Stack stack;
//   stack.call(raw_fn, {arg0, arg1, arg2});
//   secrets.find(stack.used());     // what the callee left behind
//   secrets.find(stack.vectors());  // xmm/ymm/zmm or v0-v31 as it returned them
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace lockstep::residue {

#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__))
inline constexpr bool kSupported = true;
#else
inline constexpr bool kSupported = false;
#endif

inline constexpr std::size_t kMaxArgs = 6;
// The byte the unused stack is filled with before every call.
inline constexpr std::uint8_t kPattern = 0xa5;

using RawFunction = void (*)();

class Stack {
 public:
  // size: bytes of stack; a page below them is left unmapped, so a callee
  // that needs more faults there instead of writing over the heap.
  explicit Stack(std::size_t size = 256 * 1024);
  ~Stack();
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  // call refills the stack with kPattern, runs fn(args...) on it and
  // returns its integer return register. Only where kSupported.
  std::uintptr_t call(RawFunction fn, std::span<const std::uintptr_t> args);

  // used is the part of the stack the last call wrote, from the lowest
  // byte that no longer holds the pattern up to the top.
  std::span<const std::uint8_t> used() const;
  // The vector registers as the last call left them, and the size of one.
  std::span<const std::uint8_t> vectors() const { return {vectors_, vector_bytes_}; }
  std::size_t vector_size() const { return vector_size_; }
  // "ymm3" (x86-64), "v3" (arm64) for a byte offset into vectors().
  std::string vector_name(std::size_t offset) const;

 private:
  std::uint8_t* map_ = nullptr;  // guard page, then the stack
  std::size_t map_size_ = 0;
  std::uint8_t* base_ = nullptr;
  std::uint8_t* top_ = nullptr;  // 16-byte aligned
  std::uint8_t* low_ = nullptr;  // the lowest byte the last call changed
  unsigned kind_ = 0;            // x86-64: 0 xmm0-15, 1 ymm0-15, 2 zmm0-31
  const char* vector_prefix_ = "xmm";
  std::size_t vector_size_ = 16, vector_count_ = 16, vector_bytes_ = 0;
  alignas(64) std::uint8_t vectors_[32 * 64] = {};
};

}  // namespace lockstep::residue
